//go:build linux

package main

import (
	"os"
	"testing"
)

func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(r) || isTerminal(null) {
		t.Error("a pipe or /dev/null taken for a terminal: a client's server would print the hand-start line")
	}
	// The master side of a new pseudo-terminal stands in for a terminal.
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	defer tty.Close()
	if !isTerminal(tty) {
		t.Error("a terminal not recognised")
	}
}
