package urlpattern

import "testing"

func TestMatchOrigin(t *testing.T) {
	ps := Compile([]string{"*://github.com/settings/*", "*://*/wp-admin/*", "admin.*/*", "http://127.0.0.1:*/bank/*"})
	for u, want := range map[string]string{
		"https://github.com/foo":       "*://github.com/settings/*",
		"https://gist.github.com/x":    "",
		"https://blog.example/":        "", // */wp-admin/* could be anywhere: not an origin rule
		"https://admin.example.com/x":  "admin.*/*",
		"http://127.0.0.1:8080/news":   "http://127.0.0.1:*/bank/*",
		"https://127.0.0.1:8080/news":  "",
		"https://evil.com/github.com/": "",
		"about:blank":                  "",
	} {
		got, _ := ps.MatchOrigin(u)
		if got != want {
			t.Errorf("MatchOrigin(%q) = %q, want %q", u, got, want)
		}
	}
}

func TestRunsScript(t *testing.T) {
	for u, want := range map[string]bool{
		"javascript:alert(1)": true, " JAVASCRIPT:x": true, "java\nscript:x": true, "\x01javascript:x": true,
		"https://x/javascript:": false, "view-source:javascript:x": false, "": false,
	} {
		if got := RunsScript(u); got != want {
			t.Errorf("RunsScript(%q) = %v, want %v", u, got, want)
		}
	}
}
