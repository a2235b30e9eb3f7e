package confine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnrestrictedPathsNeedNoSession(t *testing.T) {
	g := New(true, nil, nil)
	if _, err := g.Check(context.Background(), "filePath", "/etc/hostname"); err != nil {
		t.Fatalf("unrestricted: %v", err)
	}
	g = New(false, nil, nil)
	if _, err := g.Check(context.Background(), "filePath", "/etc/hostname"); err == nil || !strings.Contains(err.Error(), "temp directory") {
		t.Fatalf("no session: err = %v, want the temp directory", err)
	}
	if _, err := g.Check(context.Background(), "filePath", ""); err == nil {
		t.Fatal("an empty path should be refused")
	}
}

// TestClientRootsAreAskedPerCall checks that the guard allows the roots
// ClientRoots gives for the call, no longer the temp directory, and that
// roots that failed to arrive or are no file URIs allow nothing.
func TestClientRootsAreAskedPerCall(t *testing.T) {
	tmp, root := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	inRoot, inTemp := filepath.Join(root, "a.png"), filepath.Join(tmp, "a.json")
	var uris []string
	var fail error
	g := New(false, nil, func(context.Context) ([]string, error) { return uris, fail })
	for _, tc := range []struct {
		uris []string
		fail error
		path string
		ok   bool
	}{
		{[]string{"file://" + root}, nil, inRoot, true},
		{[]string{"file://" + root}, nil, inTemp, false},
		{[]string{"https://example.test/"}, nil, inRoot, false},
		{[]string{"file://" + root}, errors.New("the client went away"), inRoot, false},
		{nil, nil, inTemp, true},
	} {
		uris, fail = tc.uris, tc.fail
		_, err := g.Check(context.Background(), "filePath", tc.path)
		if tc.ok != (err == nil) {
			t.Errorf("roots %q (error %v), %s: %v, want allowed=%v", tc.uris, tc.fail, tc.path, err, tc.ok)
		}
	}
	uris, fail = []string{"file://" + root}, nil
	if err := g.CheckNavigation(context.Background(), "/etc/passwd"); err == nil {
		t.Error("a file: URL outside the client's roots was allowed")
	}
	uris = nil
	if err := g.CheckNavigation(context.Background(), "/etc/passwd"); err != nil {
		t.Errorf("without roots or --filesystemRoot file: URLs open anywhere, got %v", err)
	}
}
