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

// pageScripts returns the scripts first seen during the set that came from
// the page (an http, https or file URL), one per distinct source text.
func (s *set) pageScripts() (distinct []*script, sameText map[[sha256.Size]byte][]*script) {
	sameText = map[[sha256.Size]byte][]*script{}
	for i := range s.t.scripts {
		sc := &s.t.scripts[i]
		if sc.parts == 0 || sc.length == 0 || !s.bounds.Contains(sc.ts) || !pageURL(sc.url) {
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
	var dups []duplicate
	// Scripts with the very same text.
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
		dups = append(dups, d)
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
		fmt.Fprintf(&b, "None of the %d script(s) loaded the same code as another (identical script text, or the same module in their inline source maps).\n", len(distinct))
		in.Details = b.String()
		return in
	}
	slices.SortStableFunc(dups, func(a, b duplicate) int { return cmp.Compare(b.wasted, a.wasted) })
	var total int64
	for _, d := range dups {
		total += d.wasted
	}
	in.Savings = Savings{WastedBytes: total}
	fmt.Fprintf(&b, "%d piece(s) of code were loaded more than once, about %s to download in vain:\n", len(dups), kB(total))
	for _, d := range dups {
		size := "size unknown"
		if d.size >= 0 {
			size = kB(int64(d.size)) + " each"
		}
		fmt.Fprintf(&b, "- %s (%s), %d copies: %s; extra copies about %s\n", d.what, size, len(d.scripts), strings.Join(d.scripts, ", "), kB(d.wasted))
	}
	b.WriteString("Bundle shared libraries once (a shared chunk, or one <script> the others rely on), deduplicate package versions, and don't inline the same library into several bundles.\n")
	in.Details = b.String()
	return in
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
	var b strings.Builder
	found := 0
	for _, sc := range distinct {
		if len(sc.legacy) == 0 {
			continue
		}
		found++
		urls := make([]string, 0, len(sameText[sc.hash]))
		for _, g := range sameText[sc.hash] {
			if !slices.Contains(urls, g.url) {
				urls = append(urls, g.url)
			}
		}
		fmt.Fprintf(&b, "- %s (%s): %s\n", strings.Join(urls, ", "), kB(int64(sc.length)), strings.Join(sc.legacy, ", "))
	}
	if found == 0 {
		in.Details = fmt.Sprintf("None of the %d script(s) contains a well-known polyfill or Babel transform for old browsers.\n", len(distinct))
		return in
	}
	in.Failed = true
	in.Details = fmt.Sprintf("%d script(s) carry code for old browsers:\n%s", found, b.String()) +
		"Every current browser has these features. Target modern browsers in the build (e.g. a browserslist of baseline browsers, Babel preset-env with bugfixes and no useBuiltIns), remove polyfill libraries, or serve them only to old browsers (<script nomodule>).\n"
	return in
}
