package main

import (
	"os"
	"path/filepath"
)

// ServerName is the server's name in the official MCP registry, in its
// reverse-DNS form. The npm launcher declares the same name as "mcpName",
// which is how the registry checks that the package belongs to the server.
const ServerName = "io.github.devtools-mcp/devtools-mcp"

// serverJSON is the registry's server.json: what the server is and how a
// client installs and starts it.
type serverJSON struct {
	Schema      string        `json:"$schema"`
	Name        string        `json:"name"`
	Title       string        `json:"title,omitempty"`
	Description string        `json:"description"`
	Version     string        `json:"version"`
	Repository  *repo         `json:"repository,omitempty"`
	Packages    []registryPkg `json:"packages"`
}

type repo struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

type registryPkg struct {
	RegistryType         string       `json:"registryType"`
	Identifier           string       `json:"identifier"`
	Version              string       `json:"version"`
	RuntimeHint          string       `json:"runtimeHint,omitempty"`
	Transport            transport    `json:"transport"`
	PackageArguments     []namedArg   `json:"packageArguments,omitempty"`
	EnvironmentVariables []envVarSpec `json:"environmentVariables,omitempty"`
}

type transport struct {
	Type string `json:"type"`
}

type namedArg struct {
	Type        string `json:"type"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Format      string `json:"format,omitempty"`
	IsRequired  bool   `json:"isRequired"`
}

type envVarSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Format      string `json:"format,omitempty"`
	IsRequired  bool   `json:"isRequired"`
}

// ServerJSON describes this release for the registry.
func ServerJSON(version string) serverJSON {
	return serverJSON{
		Schema:      "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
		Name:        ServerName,
		Title:       "devtools-mcp",
		Description: "Chrome DevTools for coding agents: pages, input, network, traces, heap, audits.",
		Version:     version,
		Packages: []registryPkg{{
			RegistryType: "npm",
			Identifier:   "devtools-mcp",
			Version:      version,
			RuntimeHint:  "npx",
			Transport:    transport{Type: "stdio"},
			PackageArguments: []namedArg{
				{Type: "named", Name: "--headless", Description: "Run Chrome without a window", Format: "boolean"},
				{Type: "named", Name: "--isolated", Description: "Use a temporary profile, removed on exit", Format: "boolean"},
				{Type: "named", Name: "--browserUrl", Description: "Attach to a running Chrome at this DevTools URL instead of launching one"},
			},
			EnvironmentVariables: []envVarSpec{
				{Name: "CHROME_PATH", Description: "The Chrome or Chromium binary to launch", Format: "filepath"},
			},
		}},
	}
}

func writeServerJSON(cfg config) (string, error) {
	b, err := readableJSON(ServerJSON(cfg.version))
	if err != nil {
		return "", err
	}
	path := filepath.Join(cfg.out, "server.json")
	return path, os.WriteFile(path, b, 0o644)
}
