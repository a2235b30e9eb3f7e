package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Target is one platform a release ships a binary for, in Go's names.
type Target struct {
	GOOS, GOARCH string
}

// Targets are the supported platforms, in release order.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// Exe is the binary's file name on that platform.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "devtools-mcp.exe"
	}
	return "devtools-mcp"
}

// NPMOS and NPMCPU are the platform in Node's names (process.platform and
// process.arch), which npm matches against a package's "os" and "cpu".
func (t Target) NPMOS() string {
	if t.GOOS == "windows" {
		return "win32"
	}
	return t.GOOS
}

// NPMCPU is the architecture in Node's names.
func (t Target) NPMCPU() string {
	if t.GOARCH == "amd64" {
		return "x64"
	}
	return t.GOARCH
}

func findTarget(s string) (Target, bool) {
	for _, t := range Targets {
		if t.String() == s {
			return t, true
		}
	}
	return Target{}, false
}

func targetList() string {
	var names []string
	for _, t := range Targets {
		names = append(names, t.String())
	}
	return strings.Join(names, ", ")
}

// Build compiles the binary for t into dir and returns its path. The flags
// make it static (no cgo) and reproducible: -trimpath drops the build
// directory, -buildid= drops the linker's per-build id, and -buildvcs=false
// keeps the checkout's state (a dirty tree, the commit) out of the bytes,
// since the version string already names the release.
func Build(ctx context.Context, source string, t Target, version, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out, err := filepath.Abs(filepath.Join(dir, t.Exe()))
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -buildid= -X main.version="+version, "-o", out, ".")
	cmd.Dir = source
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH, "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s: %w\n%s", t, err, b)
	}
	return out, nil
}
