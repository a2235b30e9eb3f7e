package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// result is one page compared.
type result struct {
	reading
	// Ref is the reference's snapshot lines, nil without -ref.
	Ref     []string
	RefTime time.Duration
	// ScriptVsChromium is the agreement of pagewalk.js with Chromium's
	// tree as we print it; ChromiumVsRef and ScriptVsRef with the
	// reference's snapshot (without -ref: unset).
	ScriptVsChromium, ChromiumVsRef, ScriptVsRef agreed
}

// agreed is one comparison's agreement and the lines of each side only.
type agreed struct {
	Share        float64
	OnlyA, OnlyB []string
	done         bool
}

func agree(a, b []string) agreed {
	s, oa, ob := agreement(a, b)
	return agreed{Share: s, OnlyA: oa, OnlyB: ob, done: true}
}

// compare reads url our two ways and, when rs is set, the reference's.
func compare(ctx context.Context, r *reader, rs *refServer, url string) (result, error) {
	var res result
	var err error
	if res.reading, err = r.read(ctx, url); err != nil {
		return res, err
	}
	res.ScriptVsChromium = agree(res.Script, res.Chromium)
	if rs != nil {
		if res.Ref, res.RefTime, err = rs.read(ctx, url); err != nil {
			return res, err
		}
		res.ChromiumVsRef = agree(res.Chromium, res.Ref)
		res.ScriptVsRef = agree(res.Script, res.Ref)
	}
	return res, nil
}

// worst is the page's lowest agreement.
func (res result) worst() float64 {
	w := res.ScriptVsChromium.Share
	for _, a := range []agreed{res.ChromiumVsRef, res.ScriptVsRef} {
		if a.done {
			w = min(w, a.Share)
		}
	}
	return w
}

// print writes the page's line, and with diffs the lines that differ.
func (res result) print(w io.Writer, page string, diffs bool) {
	fmt.Fprintf(w, "%s: %d elements, %d lines; pagewalk.js/Chromium %.2f%%", page, res.Elements, len(res.Chromium), 100*res.ScriptVsChromium.Share)
	if res.ChromiumVsRef.done {
		fmt.Fprintf(w, ", Chromium/reference %.2f%%, pagewalk.js/reference %.2f%%", 100*res.ChromiumVsRef.Share, 100*res.ScriptVsRef.Share)
	}
	fmt.Fprintf(w, "; Chromium %s, pagewalk.js %s", ms(res.ChromiumTime), ms(res.ScriptTime))
	if res.RefTime > 0 {
		fmt.Fprintf(w, ", reference %s (pagewalk.js %.2f of it)", ms(res.RefTime), res.ScriptTime.Seconds()/res.RefTime.Seconds())
	}
	fmt.Fprintln(w)
	if !diffs {
		return
	}
	printDiff(w, "pagewalk.js", "Chromium", res.ScriptVsChromium.OnlyA, res.ScriptVsChromium.OnlyB, 40)
	if res.ChromiumVsRef.done {
		printDiff(w, "Chromium", "reference", res.ChromiumVsRef.OnlyA, res.ChromiumVsRef.OnlyB, 40)
	}
}

// dump writes the page's snapshot lines into dir, one file for each way
// it was read.
func (res result) dump(dir, page string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, strings.NewReplacer("/", "_", ":", "_").Replace(strings.TrimPrefix(page, "/")))
	for ext, l := range map[string][]string{".chromium": res.Chromium, ".pagewalk": res.Script, ".reference": res.Ref} {
		if l == nil {
			continue
		}
		if err := os.WriteFile(base+ext, []byte(strings.Join(l, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }

// totals pools the lines of every page.
type totals struct {
	pages, lines                           int
	scriptChromium, chromiumRef, scriptRef float64 // agreeing lines
	refLines                               int
	scriptTime, refTime                    time.Duration
}

func (t *totals) add(res result) {
	t.pages++
	n := float64(len(res.Chromium))
	t.lines += len(res.Chromium)
	t.scriptChromium += res.ScriptVsChromium.Share * n
	if res.ChromiumVsRef.done {
		t.refLines += len(res.Ref)
		t.chromiumRef += res.ChromiumVsRef.Share * float64(len(res.Ref))
		t.scriptRef += res.ScriptVsRef.Share * float64(len(res.Ref))
		t.scriptTime += res.ScriptTime
		t.refTime += res.RefTime
	}
}

func (t *totals) print(w io.Writer) {
	if t.lines == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d pages, %d lines: pagewalk.js/Chromium %.2f%%", t.pages, t.lines, 100*t.scriptChromium/float64(t.lines))
	if t.refLines > 0 {
		fmt.Fprintf(w, ", Chromium/reference %.2f%%, pagewalk.js/reference %.2f%%; pagewalk.js took %.2f of the reference's time",
			100*t.chromiumRef/float64(t.refLines), 100*t.scriptRef/float64(t.refLines), t.scriptTime.Seconds()/t.refTime.Seconds())
	}
	fmt.Fprintln(w)
}
