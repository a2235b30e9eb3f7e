package e2e

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestURLPatternsCatchOtherSpellings has a page fetch blocked URLs under
// other spellings of their host and path: each must be refused, while the
// plain URL of an allowed path loads. Every host resolves to 127.0.0.1.
func TestURLPatternsCatchOtherSpellings(t *testing.T) {
	site := pages(t, map[string]string{"/": `<title>Spellings</title>`})
	port := must(url.Parse(site.URL)).Port()
	s := startServer(t, append(headless, "--chromeArg=--host-resolver-rules=MAP * 127.0.0.1",
		"--blockedUrlPattern", "*://127.0.0.1:*/ads/*", "--blockedUrlPattern", "*://LOCALHOST:*/*",
		"--blockedUrlPattern", "*://bücher.test:*/*")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	urls := []string{
		"http://[::ffff:127.0.0.1]:" + port + "/ads/mapped",
		"http://2130706433:" + port + "/ads/decimal",
		"http://0x7f.1:" + port + "/ads/hex",
		"http://127.0.0.1:" + port + "/%61ds/escaped",
		"http://localhost.:" + port + "/dot",
		"http://xn--bcher-kva.test:" + port + "/idn",
		"http://127.0.0.1:" + port + "/fine",
	}
	list, _ := json.Marshal(urls)
	got := s.eval(`async () => {
		const loaded = [];
		for (const u of ` + string(list) + `) {
			try { await fetch(u, {mode: 'no-cors'}); loaded.push(u); } catch {}
		}
		return loaded.join(' ');
	}`)
	if want := `"http://127.0.0.1:` + port + `/fine"`; got != want {
		t.Fatalf("loaded %s, want only the allowed URL %s", strings.ReplaceAll(got, " ", "\n"), want)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
