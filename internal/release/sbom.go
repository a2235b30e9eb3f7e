package main

import (
	"crypto/sha256"
	"debug/buildinfo"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The bill of materials is CycloneDX 1.5 JSON, generated from the build
// information the Go linker embeds in the binary itself, so it lists exactly
// the modules that were compiled in, at the versions and checksums used.
type cyclonedx struct {
	BOMFormat    string      `json:"bomFormat"`
	SpecVersion  string      `json:"specVersion"`
	SerialNumber string      `json:"serialNumber"`
	Version      int         `json:"version"`
	Metadata     bomMetadata `json:"metadata"`
	Components   []component `json:"components"`
}

type bomMetadata struct {
	Timestamp string    `json:"timestamp"`
	Component component `json:"component"`
}

type component struct {
	Type       string     `json:"type"`
	BOMRef     string     `json:"bom-ref"`
	Name       string     `json:"name"`
	Version    string     `json:"version"`
	PURL       string     `json:"purl"`
	Hashes     []bomHash  `json:"hashes,omitempty"`
	Properties []property `json:"properties,omitempty"`
}

type bomHash struct {
	Alg     string `json:"alg"`
	Content string `json:"content"`
}

type property struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SBOMName is the bill of materials beside the archive of t.
func SBOMName(version string, t Target) string {
	return fmt.Sprintf("devtools-mcp_%s_%s_%s.cdx.json", version, t.GOOS, t.GOARCH)
}

func writeSBOM(cfg config, t Target, bin string) (string, error) {
	body, err := SBOM(bin, cfg.version, cfg.date.Format("2006-01-02T15:04:05Z"))
	if err != nil {
		return "", err
	}
	path := filepath.Join(cfg.out, SBOMName(cfg.version, t))
	return path, os.WriteFile(path, body, 0o644)
}

// SBOM reads the build information of the binary at path and describes it.
// The serial number is derived from the binary's hash, so the document is
// as reproducible as the binary it describes.
func SBOM(path, version, timestamp string) ([]byte, error) {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading build information of %s: %w", path, err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	app := component{Type: "application", BOMRef: info.Main.Path, Name: info.Main.Path, Version: version,
		PURL:       purl(info.Main.Path, "v"+version),
		Hashes:     []bomHash{{Alg: "SHA-256", Content: fmt.Sprintf("%x", sum)}},
		Properties: []property{{Name: "go:version", Value: info.GoVersion}},
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "GOOS", "GOARCH", "CGO_ENABLED", "-trimpath", "-ldflags":
			app.Properties = append(app.Properties, property{Name: "go:build:" + s.Key, Value: s.Value})
		}
	}
	doc := cyclonedx{BOMFormat: "CycloneDX", SpecVersion: "1.5", Version: 1,
		SerialNumber: "urn:uuid:" + uuidFrom(sum[:16]),
		Metadata:     bomMetadata{Timestamp: timestamp, Component: app},
		Components:   []component{},
	}
	for _, dep := range info.Deps {
		if dep.Replace != nil {
			dep = dep.Replace
		}
		c := component{Type: "library", BOMRef: dep.Path + "@" + dep.Version, Name: dep.Path, Version: dep.Version,
			PURL: purl(dep.Path, dep.Version)}
		if h, ok := strings.CutPrefix(dep.Sum, "h1:"); ok {
			c.Properties = []property{{Name: "go:module:sum", Value: "h1:" + h}}
		}
		doc.Components = append(doc.Components, c)
	}
	return readableJSON(doc)
}

// purl is the package URL of a Go module (the golang type of the purl
// specification: the path's slashes are namespace separators).
func purl(path, version string) string {
	return "pkg:golang/" + strings.ToLower(path) + "@" + version
}

// uuidFrom formats 16 bytes as a version-4-shaped UUID.
func uuidFrom(b []byte) string {
	u := make([]byte, 16)
	copy(u, b)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
