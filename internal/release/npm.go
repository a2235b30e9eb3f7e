package main

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
)

// The npm distribution follows the pattern esbuild made common: a small
// launcher package, `devtools-mcp`, whose optional dependencies are one
// package per platform holding that platform's binary. npm installs only the
// dependency whose "os" and "cpu" match the machine, so `npx -y devtools-mcp`
// downloads one binary and needs no install script.

//go:embed npm/*.js
var launcherFiles embed.FS

// NPMScope is the npm scope of the per-platform packages.
const NPMScope = "@devtools-mcp"

// packageJSON is the subset of npm's package.json the release writes.
type packageJSON struct {
	Name                 string            `json:"name"`
	MCPName              string            `json:"mcpName,omitempty"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Keywords             []string          `json:"keywords,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
}

// PlatformPackage is the npm name of t's binary package.
func PlatformPackage(t Target) string {
	return NPMScope + "/" + t.NPMOS() + "-" + t.NPMCPU()
}

// writeNPMPackages writes the launcher and the platform packages under
// out/npm, ready for `npm pack` or `npm publish` in each directory.
func writeNPMPackages(cfg config) error {
	root := filepath.Join(cfg.out, "npm")
	launcher := packageJSON{
		Name:        "devtools-mcp",
		MCPName:     ServerName,
		Version:     cfg.version,
		Description: "Chrome DevTools for coding agents: an MCP server in one static binary",
		License:     "Apache-2.0",
		Keywords:    []string{"mcp", "chrome", "devtools", "browser", "agent"},
		Bin: map[string]string{
			"devtools-mcp":    "bin/devtools-mcp.js",
			"chrome-devtools": "bin/chrome-devtools.js",
		},
		Files:                []string{"bin/", "LICENSE", "README.md"},
		Engines:              map[string]string{"node": ">=18"},
		OptionalDependencies: map[string]string{},
	}
	for _, t := range cfg.targets {
		launcher.OptionalDependencies[PlatformPackage(t)] = cfg.version
		if err := writePlatformPackage(cfg, root, t); err != nil {
			return err
		}
	}
	dir := filepath.Join(root, "devtools-mcp")
	if err := writePackageDir(cfg, dir, launcher); err != nil {
		return err
	}
	for _, name := range []string{"launch.js", "devtools-mcp.js", "chrome-devtools.js"} {
		body, err := launcherFiles.ReadFile("npm/" + name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "bin", name), body, 0o755); err != nil {
			return err
		}
	}
	return nil
}

func writePlatformPackage(cfg config, root string, t Target) error {
	p := packageJSON{
		Name:            PlatformPackage(t),
		Version:         cfg.version,
		Description:     fmt.Sprintf("The devtools-mcp binary for %s (installed by the devtools-mcp package)", t),
		License:         "Apache-2.0",
		Files:           []string{"bin/", "LICENSE", "README.md"},
		OS:              []string{t.NPMOS()},
		CPU:             []string{t.NPMCPU()},
		PreferUnplugged: true,
	}
	dir := filepath.Join(root, t.NPMOS()+"-"+t.NPMCPU())
	if err := writePackageDir(cfg, dir, p); err != nil {
		return err
	}
	bin, err := os.ReadFile(filepath.Join(cfg.out, "bin", t.String(), t.Exe()))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "bin", t.Exe()), bin, 0o755)
}

// writePackageDir creates dir/bin with package.json, the licence and the
// README beside it.
func writePackageDir(cfg config, dir string, p packageJSON) error {
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	body, err := readableJSON(p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), body, 0o644); err != nil {
		return err
	}
	for _, name := range []string{"LICENSE", "README.md"} {
		b, err := os.ReadFile(filepath.Join(cfg.source, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
