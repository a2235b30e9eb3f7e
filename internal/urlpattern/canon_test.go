package urlpattern

import "testing"

func TestPunycode(t *testing.T) {
	for in, want := range map[string]string{
		"bücher": "bcher-kva", "münchen": "mnchen-3ya", "中文": "fiq228c", "правительство": "80aealotwbjpid2k", "ü": "tda",
	} {
		if got, ok := punycode(in); !ok || got != want {
			t.Errorf("punycode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestPatternsMatchEverySpellingOfAHost: the spellings a page could use to
// reach a blocked host (or to pass for an allowed one) all match the
// pattern the user wrote, in whichever spelling the user wrote it.
func TestPatternsMatchEverySpellingOfAHost(t *testing.T) {
	for pattern, spellings := range map[string][]string{
		"*://127.0.0.2/*": {
			"http://127.0.0.2/", "http://[::ffff:127.0.0.2]/", "http://[::ffff:7f00:2]/", "http://[0:0:0:0:0:FFFF:7F00:0002]/x",
			"http://2130706434/", "http://0x7f000002/", "http://0x7f.2/", "http://0177.0.0.2/", "http://127.2/", "http://127.0.0.2./",
			"http://user:pw@127.0.0.2/", "HTTP://127.0.0.2:80/", "https://127.0.0.2:443/", "ws://127.0.0.2/socket",
		},
		"*://2130706434/*":            {"http://127.0.0.2/"},
		"http://[::ffff:127.0.0.2]/*": {"http://127.0.0.2/"},
		"*://localhost/*":             {"http://localhost./x", "http://LOCALHOST/x", "http://localhost:80/", "http://a:b@LocalHost./"},
		"*://[::1]/*":                 {"http://[0:0::1]/", "http://[0000:0000:0000:0000:0000:0000:0000:0001]/"},
		"*://bücher.example/*":        {"http://xn--bcher-kva.example/", "http://BÜCHER.example/", "http://ｂücher．example/"},
		"*://xn--bcher-kva.example/*": {"http://bücher.example/"},
		"*://*.bücher.example/*":      {"https://shop.xn--bcher-kva.example/"},
		"http://EXAMPLE.com:80/*":     {"http://example.com/a"},
		"https://example.com:443/*":   {"https://example.com/a"},
		"*/ads/*":                     {"http://x/ads/p.png", "http://x/%61ds/p.png", "http://x/%61%64%73/p", "http://x/a/ads/?q"},
		"*/a%2fb":                     {"http://x/a%2Fb"},
		"http://example.com/*":        {"http://user@example.com/", "http://example.com./"},
	} {
		ps := Compile([]string{pattern})
		for _, u := range spellings {
			if _, ok := ps.Match(u); !ok {
				t.Errorf("%q does not match %q (canonical %q, pattern %q)", u, pattern, Canonical(u), canonicalPattern(pattern))
			}
		}
	}
}

func TestPatternsDoNotOverreach(t *testing.T) {
	for pattern, others := range map[string][]string{
		"*://127.0.0.2/*":           {"http://127.0.0.20/", "http://[::1]/", "http://127.0.0.2.example/", "http://0x7f.2.example/"},
		"*://localhost/*":           {"http://notlocalhost/", "http://localhost.example/"},
		"https://allowed.com*":      {"https://allowed.com@evil.com/", "http://allowed.com/"},
		"http://example.com:8080/*": {"http://example.com/"},
		"*/ads/*":                   {"http://x/%2561ds/p"},
	} {
		ps := Compile([]string{pattern})
		for _, u := range others {
			if _, ok := ps.Match(u); ok {
				t.Errorf("%q matches %q (canonical %q)", u, pattern, Canonical(u))
			}
		}
	}
}

// FuzzCanonicalURL: canonicalising never panics, is idempotent, and keeps
// a URL matching a pattern made of itself.
func FuzzCanonicalURL(f *testing.F) {
	for _, s := range []string{"http://[::ffff:127.0.0.2]/", "http://0x7f.1/", "http://bücher.example./%61", "https://u:p@h:443/?q#f", "*://*.x/*", "http://[", "http://%zz/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Canonical(s)
		if again := Canonical(c); again != c {
			t.Errorf("Canonical not idempotent: %q -> %q -> %q", s, c, again)
		}
		p := canonicalPattern(s)
		if again := canonicalPattern(p); again != p {
			t.Errorf("canonicalPattern not idempotent: %q -> %q -> %q", s, p, again)
		}
	})
}
