package audit

import (
	"reflect"
	"testing"
)

// TestLinkPurposeName checks the name links are grouped by: lowered,
// emoji (keycaps, flags and modified emoji whole), symbols and
// punctuation dropped, white space collapsed.
func TestLinkPurposeName(t *testing.T) {
	for in, want := range map[string]string{
		"Read   More":         "read more",
		"Next >>":             "next",
		"Go!":                 "go",
		"🤘 Rock 🤘":            "rock",
		"👍🏽 ok":               "ok",
		"1️⃣ first":           "first",
		"🇫🇷 France":           "france",
		"© 2026 ™":            "2026",
		"→ arrow":             "arrow",
		"a\u00adb\u200bc":     "abc",
		"café ☕":              "café",
		">>":                  "",
		"x\ufe0f":             "x\ufe0f",
		"Ünïcode  letters 42": "ünïcode letters 42",
	} {
		if got := linkPurposeName(in); got != want {
			t.Errorf("linkPurposeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLinkTarget checks which hrefs axe-core takes for the same place.
func TestLinkTarget(t *testing.T) {
	pg := newPage(&Input{})
	dest := func(href string) *linkDest {
		pg.in = &Input{FinalURL: "http://site.test/dir/page.html", Nodes: []Node{{Parent: -1, Tag: "a", Attrs: map[string]string{"href": href}}}}
		return linkTarget(pg.in, pg, 0)
	}
	same := func(a, b string) bool {
		x, y := dest(a), dest(b)
		return x != nil && y != nil && reflect.DeepEqual(*x, *y)
	}
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"/home", "/home/", true},
		{"/home/", "/home/index.html", true},
		{"/home/", "/home/index.php", true},
		{"/home", "/home#top", true},
		{"/home/#/a", "/home/#/b", false},
		{"/home/#!a", "/home/#!a", true},
		{"/home/#!a", "/home/#!b", false},
		{"/s?a=1&b=2", "/s?b=2&a=1", true},
		{"/s?q=a", "/s?q=b", false},
		{"/s?q=a%20b", "/s?q=a b", true},
		{"https://site.test/x", "http://site.test/x", true},
		{"http://SITE.test:80/x", "http://site.test/x", true},
		{"http://site.test:8080/x", "http://site.test/x", false},
		{"other.html", "/dir/other.html", true},
		{"../dir/other.html", "other.html", true},
		{"/one/same.html", "/two/same.html", false},
		{" /padded ", "/padded", true},
		{"javascript:void(0)", "javascript:void(0)", true},
		{"mailto:a@b.test", "mailto:c@b.test", false},
	} {
		if got := same(c.a, c.b); got != c.same {
			t.Errorf("%q and %q: same place %v, want %v", c.a, c.b, got, c.same)
		}
	}
	pg.in = &Input{Nodes: []Node{{Parent: -1, Tag: "span", Attrs: map[string]string{"role": "link"}}}}
	if d := linkTarget(pg.in, pg, 0); d != nil {
		t.Errorf("a link without href goes to %+v, want nowhere", d)
	}
}
