package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactionHidesEveryCredentialClass sends credentials the ways a page
// does (headers of many names, a token in the URL, a login form, a JSON
// body) and checks that --redactNetworkHeaders shows none of them.
func TestRedactionHidesEveryCredentialClass(t *testing.T) {
	site := pages(t, map[string]string{
		"/": `<title>Creds</title><script>
			window.done = Promise.all([
				fetch('/api/form?access_token=s3cret-url&page=2', {method: 'POST',
					headers: {'X-Access-Key': 's3cret-h1', 'Ocp-Apim-Subscription-Key': 's3cret-h2', 'X-Session-Id': 's3cret-h3',
						'X-Csrf-Token': 's3cret-h4', 'X-Custom': 'Bearer s3cret-h5', 'Content-Type': 'application/x-www-form-urlencoded'},
					body: 'user=me&password=s3cret-form'}),
				fetch('/api/json', {method: 'POST', headers: {'Content-Type': 'application/json'},
					body: JSON.stringify({user: 'me', refresh_token: 's3cret-json'})}),
			]).then(() => true);
		</script>`,
		"/api/form": `ok`,
		"/api/json": `ok`,
	})
	s := startServer(t, append(headless, "--redactNetworkHeaders")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval("() => window.done")
	list := s.ok("list_network_requests", nil)
	mustContain(t, list, "/api/form?access_token=", "page=2")
	reqidIn := func(list, substr string) int {
		var n int
		if _, err := fmt.Sscanf(pageLine(list, substr), "reqid=%d", &n); err != nil {
			t.Fatalf("no reqid for %q in:\n%s", substr, list)
		}
		return n
	}
	answers := []string{list}
	for _, path := range []string{"/api/form", "/api/json"} {
		answers = append(answers, s.ok("get_network_request", map[string]any{"reqid": reqidIn(list, path)}))
	}
	mustContain(t, answers[1], "user=me", "X-Access-Key")
	for _, a := range answers {
		if strings.Contains(a, "s3cret") {
			t.Errorf("a redacted answer shows a credential:\n%s", a)
		}
	}
}
