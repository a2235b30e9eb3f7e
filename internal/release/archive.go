package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

//go:embed install.sh
var installScript string

// member is one file in an archive.
type member struct {
	name string // the name inside the archive
	path string // where it is on disk
	mode int64
}

// ArchiveName is the archive of t for version: a .zip on Windows, where
// that is what users open, and a .tar.gz elsewhere.
func ArchiveName(version string, t Target) string {
	ext := ".tar.gz"
	if t.GOOS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("devtools-mcp_%s_%s_%s%s", version, t.GOOS, t.GOARCH, ext)
}

// writeArchive packs the binary with the licence and the README. Every
// header field that could vary between builds (times, owners, order,
// the gzip name) is fixed, so the archive is as reproducible as the binary.
func writeArchive(cfg config, t Target, bin string) (string, error) {
	members := []member{
		{name: t.Exe(), path: bin, mode: 0o755},
		{name: "LICENSE", path: filepath.Join(cfg.source, "LICENSE"), mode: 0o644},
		{name: "README.md", path: filepath.Join(cfg.source, "README.md"), mode: 0o644},
	}
	path := filepath.Join(cfg.out, ArchiveName(cfg.version, t))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(path, ".zip") {
		err = writeZip(f, members, cfg.date)
	} else {
		err = writeTarGz(f, members, cfg.date)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("archive for %s: %w", t, err)
	}
	return path, nil
}

func writeTarGz(w io.Writer, members []member, date time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	gz.ModTime = date
	tw := tar.NewWriter(gz)
	for _, m := range members {
		body, err := os.ReadFile(m.path)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: m.name, Mode: m.mode, Size: int64(len(body)), ModTime: date,
			Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(body); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, members []member, date time.Time) error {
	zw := zip.NewWriter(w)
	for _, m := range members {
		body, err := os.ReadFile(m.path)
		if err != nil {
			return err
		}
		hdr := &zip.FileHeader{Name: m.name, Method: zip.Deflate, Modified: date}
		hdr.SetMode(os.FileMode(m.mode))
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := fw.Write(body); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes the sha256sum-format list of files (names relative to
// the file's own directory, sorted), which `sha256sum -c` checks.
func writeSums(path string, files []string) error {
	var lines []string
	for _, f := range files {
		sum, err := fileSHA256(f)
		if err != nil {
			return err
		}
		lines = append(lines, sum+"  "+filepath.Base(f))
	}
	slices.SortFunc(lines, func(a, b string) int { return strings.Compare(a[66:], b[66:]) })
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyInstallScript puts install.sh beside the archives, with this
// release's version and base URL as its defaults, so that the one URL
// serves both.
func copyInstallScript(cfg config) (string, error) {
	body := strings.NewReplacer("@VERSION@", cfg.version, "@BASE_URL@", cfg.baseURL).Replace(installScript)
	path := filepath.Join(cfg.out, "install.sh")
	return path, os.WriteFile(path, []byte(body), 0o755)
}
