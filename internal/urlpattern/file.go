package urlpattern

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// ReadFile reads a file of patterns: one a line, blank lines and lines
// starting with "#" ignored, surrounding spaces trimmed (the user's
// sensitive-patterns.txt).
func ReadFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var patterns []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, line)
		}
	}
	if err := sc.Err(); err != nil {
		return patterns, fmt.Errorf("read %s: %w", path, err)
	}
	return patterns, nil
}
