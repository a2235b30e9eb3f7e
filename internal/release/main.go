// Command release builds a devtools-mcp release into a directory: static
// binaries for every supported platform, one archive per platform, a
// software bill of materials per binary, SHA256SUMS over all of it, the npm
// packages that let users run `npx -y devtools-mcp@latest`, and the install
// script. Nothing is uploaded; see the README's "Publishing a release".
//
// The output is reproducible: the same source, version and date give the
// same bytes, whichever machine, directory or Go build cache builds it.
//
//	go run ./internal/release -version 1.2.3 -out dist
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// semver is the shape npm and the MCP registry accept for a version.
var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// config is one release run, as given on the command line.
type config struct {
	version string
	out     string
	source  string    // the module root to build
	baseURL string    // where the release's files will be served from
	date    time.Time // the timestamp written into archives
	targets []Target
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, log io.Writer) error {
	cfg, err := parseArgs(args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	var files []string
	for _, t := range cfg.targets {
		fmt.Fprintf(log, "building %s\n", t)
		bin, err := Build(ctx, cfg.source, t, cfg.version, filepath.Join(cfg.out, "bin", t.String()))
		if err != nil {
			return err
		}
		archive, err := writeArchive(cfg, t, bin)
		if err != nil {
			return err
		}
		sbom, err := writeSBOM(cfg, t, bin)
		if err != nil {
			return err
		}
		files = append(files, archive, sbom)
	}
	script, err := copyInstallScript(cfg)
	if err != nil {
		return err
	}
	manifest, err := writeServerJSON(cfg)
	if err != nil {
		return err
	}
	files = append(files, script, manifest)
	if err := writeSums(filepath.Join(cfg.out, "SHA256SUMS"), files); err != nil {
		return err
	}
	if err := writeNPMPackages(cfg); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s\n", cfg.out)
	return nil
}

// parseArgs reads the flags. The archive date defaults to
// SOURCE_DATE_EPOCH, the convention reproducible builds share, and to the
// Unix epoch when that is unset, so that it never depends on the clock.
func parseArgs(args []string) (config, error) {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	version := fs.String("version", "", "the version to stamp, as semver without a leading v (required)")
	out := fs.String("out", "dist", "the directory to write the release into")
	source := fs.String("source", ".", "the root of the devtools-mcp module to build")
	baseURL := fs.String("base-url", "https://github.com/devtools-mcp/devtools-mcp/releases/download/v{version}",
		"where the release will be published; install.sh downloads from there ({version} is replaced)")
	targets := fs.String("targets", "", "comma-separated GOOS/GOARCH pairs (default: every supported platform)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if !semver.MatchString(*version) {
		return config{}, fmt.Errorf("-version %q: want a semantic version such as 1.2.3", *version)
	}
	cfg := config{version: *version, out: *out, source: *source, targets: Targets,
		baseURL: strings.ReplaceAll(*baseURL, "{version}", *version)}
	if *targets != "" {
		var err error
		if cfg.targets, err = parseTargets(*targets); err != nil {
			return config{}, err
		}
	}
	cfg.date = time.Unix(0, 0).UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil || sec < 0 {
			return config{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: want seconds since 1970", s)
		}
		cfg.date = time.Unix(sec, 0).UTC()
	}
	if _, err := os.Stat(filepath.Join(cfg.source, "go.mod")); err != nil {
		return config{}, fmt.Errorf("-source %s: %w", cfg.source, err)
	}
	return cfg, nil
}

func parseTargets(s string) ([]Target, error) {
	var ts []Target
	for _, pair := range strings.Split(s, ",") {
		t, ok := findTarget(strings.TrimSpace(pair))
		if !ok {
			return nil, fmt.Errorf("-targets: %q is not one of %s", pair, targetList())
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 {
		return nil, errors.New("-targets: empty")
	}
	return ts, nil
}
