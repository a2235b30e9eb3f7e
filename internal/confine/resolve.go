package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symlinks one path may go through, as the kernel's
// own limit (40 on Linux) does.
const maxLinks = 40

// resolvePath returns the absolute path the kernel reaches for path. It
// walks the path one component at a time as open(2) does: a symlink is
// replaced by its target before the next component is looked at, so
// ROOT/link/../x is the parent of link's target, not ROOT. Components that
// do not exist yet are kept as given, but a ".." after one is refused, since
// the kernel would fail there. With followLast false a symlink in the last
// component is not followed (the result names the link itself), for the
// callers that refuse to write through one.
func resolvePath(path string, followLast bool) (string, error) {
	if path == "" {
		return "", errors.New("empty path")
	}
	if !filepath.IsAbs(path) {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		// Not filepath.Join: that would clean "link/.." textually.
		path = wd + string(filepath.Separator) + path
	}
	vol := filepath.VolumeName(path)
	cur := vol + string(filepath.Separator)
	todo := components(path[len(vol):])
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case ".":
			continue
		case "..":
			cur = filepath.Dir(cur) // cur holds no links: this is what the kernel does
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			for _, rest := range todo {
				if rest == ".." {
					return "", fmt.Errorf("%s does not exist, so %s cannot be resolved", next, path)
				}
			}
			return filepath.Join(append([]string{next}, todo...)...), nil
		}
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 || (len(todo) == 0 && !followLast) {
			if len(todo) > 0 && !fi.IsDir() {
				return "", fmt.Errorf("resolve %s: %s is not a directory", path, next)
			}
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("resolve %s: %w", path, syscall.ELOOP)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			cur, target = v+string(filepath.Separator), target[len(v):]
		}
		todo = append(components(target), todo...)
	}
	return cur, nil
}

// components splits a path at its separators, dropping empty parts.
func components(path string) []string {
	return strings.FieldsFunc(path, func(r rune) bool { return r < 0x80 && os.IsPathSeparator(uint8(r)) })
}
