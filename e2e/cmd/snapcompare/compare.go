package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/e2e/internal/docsite"
	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/chrome"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// reading is one page read both ways by our server's code.
type reading struct {
	// Chromium and Script are the snapshot lines (uids stripped) read
	// from Chromium's accessibility tree and by pagewalk.js.
	Chromium, Script []string
	// ChromiumTime and ScriptTime are how long each read took.
	ChromiumTime, ScriptTime time.Duration
	// Elements is the document's element count.
	Elements int
}

// reader reads pages in one headless Chromium.
type reader struct {
	m *browser.Manager
	p *browser.Page
}

// Viewport is the window size both servers get, so that what depends on
// it (content-visibility:auto sections, media queries) is the same.
const viewportWidth, viewportHeight = 1280, 720

// newReader starts a headless Chromium ($CHROME_PATH when set).
func newReader(ctx context.Context) (*reader, error) {
	m := browser.NewManager(browser.Options{Launch: chrome.LaunchOptions{
		Headless: true, Isolated: true, ViewportWidth: viewportWidth, ViewportHeight: viewportHeight,
	}})
	b, err := m.Get(ctx)
	if err != nil {
		m.Close(ctx)
		return nil, err
	}
	p, err := b.SelectedOrNew(ctx)
	if err != nil {
		m.Close(ctx)
		return nil, err
	}
	return &reader{m: m, p: p}, nil
}

// Close closes the browser.
func (r *reader) Close(ctx context.Context) { r.m.Close(ctx) }

// read navigates to url and reads its snapshot both ways.
func (r *reader) read(ctx context.Context, url string) (reading, error) {
	var out reading
	if _, err := r.p.Navigate(ctx, browser.Navigation{URL: url}); err != nil {
		return out, fmt.Errorf("navigate to %s: %w", url, err)
	}
	count, err := r.p.Evaluate(ctx, "document.getElementsByTagName('*').length")
	if err != nil {
		return out, fmt.Errorf("count elements of %s: %w", url, err)
	}
	fmt.Sscan(string(count.Value), &out.Elements)
	for _, script := range []bool{false, true} {
		start := time.Now()
		s, err := r.p.Snapshots().SnapshotReadBy(ctx, script)
		if err != nil {
			return out, fmt.Errorf("snapshot of %s: %w", url, err)
		}
		d := time.Since(start)
		if scripted := s.Root != nil && s.Root.Key.World != ""; scripted != script {
			return out, fmt.Errorf("snapshot of %s read by pagewalk.js: %v, want %v", url, scripted, script)
		}
		text, err := s.Format(snapshot.Options{})
		if err != nil {
			return out, err
		}
		if script {
			out.Script, out.ScriptTime = lines(text), d
		} else {
			out.Chromium, out.ChromiumTime = lines(text), d
		}
	}
	return out, nil
}

// uidField is the uid at the start of a snapshot line.
var uidField = regexp.MustCompile(`^(\s*)uid=\S+ ?`)

// lines splits a snapshot text into lines without their uids, from its
// first uid line on (the reference's answer starts with a heading).
func lines(text string) []string {
	if i := strings.Index(text, "uid="); i > 0 {
		text = text[strings.LastIndex(text[:i], "\n")+1:]
	}
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	out := strings.Split(text, "\n")
	for i, l := range out {
		out[i] = uidField.ReplaceAllString(l, "$1")
	}
	return out
}

// agreement is the share of lines two snapshots have in common, in order
// (the longest common subsequence over the longer one's length), with the
// lines only in a and only in b.
func agreement(a, b []string) (share float64, onlyA, onlyB []string) {
	if len(a) == 0 && len(b) == 0 {
		return 1, nil, nil
	}
	common, onlyA, onlyB := lcs(a, b)
	return float64(common) / float64(max(len(a), len(b))), onlyA, onlyB
}

// lcs returns the length of the longest common subsequence of a and b and
// the lines of each outside it, by Myers' O((N+M)D) algorithm after the
// common ends are set aside. Beyond maxEdits differences it gives up on
// order and matches lines as multisets.
func lcs(a, b []string) (int, []string, []string) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	a, b = a[pre:], b[pre:]
	suf := 0
	for suf < len(a) && suf < len(b) && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	a, b = a[:len(a)-suf], b[:len(b)-suf]
	const maxEdits = 4000
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return pre + suf, a, b
	}
	off := n + m
	v := make([]int, 2*off+2)
	var trace [][]int
	for d := 0; d <= n+m; d++ {
		if d > maxEdits {
			c, oa, ob := multiset(a, b)
			return pre + suf + c, oa, ob
		}
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				oa, ob := backtrack(trace, a, b, d, off)
				return pre + suf + (n+m-d)/2, oa, ob
			}
		}
	}
	return pre + suf, a, b
}

// backtrack walks Myers' trace back from d edits and returns the deleted
// lines of a and the inserted lines of b.
func backtrack(trace [][]int, a, b []string, d, off int) (onlyA, onlyB []string) {
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
		}
		if x == px {
			onlyB = append(onlyB, b[py])
		} else {
			onlyA = append(onlyA, a[px])
		}
		x, y = px, py
	}
	reverse(onlyA)
	reverse(onlyB)
	return onlyA, onlyB
}

func reverse(s []string) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// multiset matches lines regardless of order.
func multiset(a, b []string) (int, []string, []string) {
	count := map[string]int{}
	for _, l := range b {
		count[l]++
	}
	common := 0
	var onlyA, onlyB []string
	for _, l := range a {
		if count[l] > 0 {
			count[l]--
			common++
		} else {
			onlyA = append(onlyA, l)
		}
	}
	for _, l := range b {
		if count[l] > 0 {
			count[l]--
			onlyB = append(onlyB, l)
		}
	}
	return common, onlyA, onlyB
}

// printDiff writes up to max lines of each side's own lines.
func printDiff(w io.Writer, nameA, nameB string, onlyA, onlyB []string, limit int) {
	for _, side := range []struct {
		name  string
		lines []string
	}{{nameA, onlyA}, {nameB, onlyB}} {
		for i, l := range side.lines {
			if i == limit {
				fmt.Fprintf(w, "      ... %d more only in %s\n", len(side.lines)-limit, side.name)
				break
			}
			fmt.Fprintf(w, "      only in %s: %s\n", side.name, strings.TrimSpace(l))
		}
	}
}

// readList reads a page list: one URL or file path a line, # comments.
// Relative paths are taken from dir.
func readList(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var pages []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pages = append(pages, line)
	}
	return pages, nil
}

// site serves local files on 127.0.0.1: a page given as a path is loaded
// from there, so that it reads as it would from a web server (and its
// relative links and styles resolve). Only the directories of listed
// files are served.
type site struct {
	srv     *httptest.Server
	allowed docsite.Dirs
}

func newSite() *site {
	s := &site{allowed: docsite.Dirs{}}
	s.srv = httptest.NewServer(s.allowed)
	return s
}

func (s *site) Close() { s.srv.Close() }

// url returns the URL to load page at: itself when it is a URL, the
// served file otherwise.
func (s *site) url(page string) (string, error) {
	if strings.Contains(page, "://") {
		return page, nil
	}
	abs, err := filepath.Abs(page)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	// The package's whole documentation tree: pages link their styles
	// from sibling directories.
	s.allowed[docRoot(abs)] = true
	return s.srv.URL + filepath.ToSlash(abs), nil
}

// docRoot is the directory a documentation page's styles and scripts are
// found under: /usr/share/doc/<package> for Debian's, the page's own
// directory otherwise.
func docRoot(abs string) string {
	if rest, ok := strings.CutPrefix(abs, "/usr/share/doc/"); ok {
		if pkg, _, ok := strings.Cut(rest, "/"); ok {
			return "/usr/share/doc/" + pkg
		}
	}
	return filepath.Dir(abs)
}
