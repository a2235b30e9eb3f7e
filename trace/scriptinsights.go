package trace

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
)

// minDuplicate is the size under which identical code is not worth
// reporting (small shims and one-liners repeat on purpose).
const minDuplicate = 512

// legacyMinBytes is the least a script must be, and the least its legacy
// code must be estimated to cost, to be reported (DevTools' threshold).
const legacyMinBytes = 5000

// pageScripts returns the scripts of this page: first seen during the set,
// from an http, https or file URL the page requested during the set, one
// per distinct source text. Chrome's source rundown at the start of a trace
// (ScriptCatchup) also lists the scripts earlier pages left in a reused
// renderer; without a request in the set they are not this page's.
func (s *set) pageScripts() (distinct []*script, sameText map[[sha256.Size]byte][]*script) {
	sameText = map[[sha256.Size]byte][]*script{}
	requested := map[string]bool{}
	for i := range s.t.Requests {
		if r := &s.t.Requests[i]; s.inSet(r) {
			requested[r.URL] = true
		}
	}
	for i := range s.t.scripts {
		sc := &s.t.scripts[i]
		if sc.parts == 0 || sc.length == 0 || !s.bounds.Contains(sc.ts) || !pageURL(sc.url) || !requested[sc.url] {
			continue
		}
		if len(sameText[sc.hash]) == 0 {
			distinct = append(distinct, sc)
		}
		sameText[sc.hash] = append(sameText[sc.hash], sc)
	}
	return distinct, sameText
}

func pageURL(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "file://")
}

// transferred estimates the bytes n bytes of a script cost over the
// network, from the compression of the request that loaded it.
func (s *set) transferred(sc *script, n int) int64 {
	for i := range s.t.Requests {
		if r := &s.t.Requests[i]; r.URL == sc.url && r.DecodedLength > 0 && r.EncodedLength > 0 {
			return int64(float64(n) * min(1, float64(r.EncodedLength)/float64(r.DecodedLength)))
		}
	}
	return int64(n)
}

// duplicate is code loaded more than once.
type duplicate struct {
	what    string   // the identical script text, or a bundled module
	size    int      // bytes of one copy, -1 when unknown
	scripts []string // the URLs of the scripts with a copy
	wasted  int64    // estimated transfer bytes of the extra copies
}

func (s *set) duplicatedJavaScript() *Insight {
	if !s.t.ScriptSources {
		return nil
	}
	distinct, sameText := s.pageScripts()
	if len(distinct) == 0 {
		return nil
	}
	var dups, sameCopies []duplicate
	// Scripts with the very same text: reported, but like DevTools, which
	// compares only the modules source maps name, not counted as failing.
	for _, sc := range distinct {
		group := sameText[sc.hash]
		if len(group) < 2 || sc.length < minDuplicate {
			continue
		}
		d := duplicate{what: "identical script text", size: sc.length}
		for i, g := range group {
			d.scripts = append(d.scripts, g.url)
			if i > 0 {
				d.wasted += s.transferred(g, g.length)
			}
		}
		sameCopies = append(sameCopies, d)
	}
	// The same module bundled into different scripts (per inline source map).
	type copyOf struct {
		sc   *script
		size int
	}
	byModule := map[string][]copyOf{}
	var modules []string
	for _, sc := range distinct {
		for _, m := range sc.modules {
			list := byModule[m.name]
			if len(list) > 0 && list[len(list)-1].sc == sc {
				continue // listed twice in one map
			}
			if len(list) == 0 {
				modules = append(modules, m.name)
			}
			byModule[m.name] = append(list, copyOf{sc, m.size})
		}
	}
	for _, name := range modules {
		list := byModule[name]
		if len(list) < 2 {
			continue
		}
		slices.SortStableFunc(list, func(a, b copyOf) int { return cmp.Compare(b.size, a.size) })
		if list[0].size >= 0 && list[0].size < minDuplicate {
			continue
		}
		d := duplicate{what: "module " + name, size: list[0].size}
		for i, c := range list {
			d.scripts = append(d.scripts, c.sc.url)
			if i > 0 && c.size > 0 {
				d.wasted += s.transferred(c.sc, c.size)
			}
		}
		dups = append(dups, d)
	}
	in := &Insight{
		Title:       "Duplicated JavaScript",
		Description: "The same library or module loaded by more than one script: every extra copy is downloaded, parsed and compiled again. Load shared code once, from one shared bundle or chunk.",
		Failed:      len(dups) > 0,
		Bounds:      s.bounds,
	}
	var b strings.Builder
	if len(dups) == 0 {
		fmt.Fprintf(&b, "None of the %d script(s) bundled the same module as another (as their inline source maps name them).\n", len(distinct))
		writeSameCopies(&b, sameCopies)
		in.Details = b.String()
		return in
	}
	slices.SortStableFunc(dups, func(a, b duplicate) int { return cmp.Compare(b.wasted, a.wasted) })
	var total int64
	for _, d := range dups {
		total += d.wasted
	}
	in.Savings = Savings{WastedBytes: total}
	in.setKey("wastedBytes", float64(total))
	fmt.Fprintf(&b, "%d piece(s) of code were loaded more than once, about %s to download in vain:\n", len(dups), kB(total))
	for _, d := range dups {
		size := "size unknown"
		if d.size >= 0 {
			size = kB(int64(d.size)) + " each"
		}
		fmt.Fprintf(&b, "- %s (%s), %d copies: %s; extra copies about %s\n", d.what, size, len(d.scripts), strings.Join(d.scripts, ", "), kB(d.wasted))
	}
	b.WriteString("Bundle shared libraries once (a shared chunk, or one <script> the others rely on), deduplicate package versions, and don't inline the same library into several bundles.\n")
	writeSameCopies(&b, sameCopies)
	in.Details = b.String()
	return in
}

// writeSameCopies notes the scripts loaded twice with the very same text.
func writeSameCopies(b *strings.Builder, same []duplicate) {
	if len(same) == 0 {
		return
	}
	b.WriteString("\nAlso loaded more than once with the very same text (not counted above: without a source map the modules inside are unknown):\n")
	for _, d := range same {
		fmt.Fprintf(b, "- %s (%s each), %d copies: %s; extra copies about %s\n", d.what, kB(int64(d.size)), len(d.scripts), strings.Join(d.scripts, ", "), kB(d.wasted))
	}
	b.WriteString("Load each library from one URL, once.\n")
}

func (s *set) legacyJavaScript() *Insight {
	if !s.t.ScriptSources {
		return nil
	}
	distinct, sameText := s.pageScripts()
	if len(distinct) == 0 {
		return nil
	}
	in := &Insight{
		Title:       "Legacy JavaScript",
		Description: "Polyfills and transforms for old browsers make modern browsers download and run code they don't need. Build for current browsers and drop the polyfills.",
		Bounds:      s.bounds,
	}
	var b, minor strings.Builder
	found := 0
	var total int64
	for _, sc := range distinct {
		if len(sc.legacy) == 0 {
			continue
		}
		urls := make([]string, 0, len(sameText[sc.hash]))
		for _, g := range sameText[sc.hash] {
			if !slices.Contains(urls, g.url) {
				urls = append(urls, g.url)
			}
		}
		if sc.legacyBytes < legacyMinBytes {
			fmt.Fprintf(&minor, "- %s (%s): %s, about %s\n", strings.Join(urls, ", "), kB(int64(sc.length)), strings.Join(sc.legacy, ", "), kB(int64(sc.legacyBytes)))
			continue
		}
		found++
		wasted := s.transferred(sc, sc.legacyBytes)
		total += wasted
		fmt.Fprintf(&b, "- %s (%s): %s; about %s could be saved\n", strings.Join(urls, ", "), kB(int64(sc.length)), strings.Join(sc.legacy, ", "), kB(wasted))
	}
	if minor.Len() > 0 {
		minor.WriteString("(Under 5 kB of estimated savings per script: not worth a change of build on their own.)\n")
	}
	if found == 0 {
		in.Details = fmt.Sprintf("None of the %d script(s) carries 5 kB or more of polyfills or Babel transforms for old browsers (scripts under 5 kB are not checked).\n", len(distinct)) + minor.String()
		return in
	}
	in.Failed = true
	in.Savings = Savings{WastedBytes: total}
	in.setKey("scripts", float64(found))
	in.Details = fmt.Sprintf("%d script(s) carry code for old browsers, about %s to download in vain (estimated: a polyfill library's shared internals and each polyfill, or each Babel helper and its uses, at most the script):\n%s", found, kB(total), b.String()) +
		minor.String() +
		"Every current browser has these features. Target modern browsers in the build (e.g. a browserslist of baseline browsers, Babel preset-env with bugfixes and no useBuiltIns), remove polyfill libraries, or serve them only to old browsers (<script nomodule>).\n"
	return in
}
