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

// TestRedactionHidesCredentialsInPageText has a page log credentials to
// the console (an Authorization header, a JWT, token= pairs, a URL with
// a secret parameter, a JSON object), throw an error naming one, open an
// alert with one, and post a multipart form with a password field and a
// key file, and checks that no answer shows them under
// --redactNetworkHeaders, while the rest of each message is kept.
func TestRedactionHidesCredentialsInPageText(t *testing.T) {
	site := pages(t, map[string]string{
		"/": `<title>Logs</title><script>
			console.log('Authorization: Bearer s3cret-bearer-1');
			console.info('got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzM2NyZXQifQ.s3cret-jwt-sig from the server');
			console.warn('retry with token=s3cret-pair&page=2');
			console.log('calling https://api.test/v1?api_key=s3cret-url-key&q=cats');
			console.log({user: 'me', password: 's3cret-object'});
			console.error(new Error('login failed for session=s3cret-error'));
			window.done = (() => {
				const f = new FormData();
				f.append('user', 'me');
				f.append('password', 's3cret-multipart');
				f.append('note', 'my apiKey: s3cret-note here');
				return fetch('/api/upload', {method: 'POST', body: f}).then(() => true);
			})();
		</script>`,
		"/api/upload": `ok`,
	})
	s := startServer(t, append(headless, "--redactNetworkHeaders")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval("() => window.done")
	list := s.ok("list_console_messages", nil)
	mustContain(t, list, "Authorization: <redacted>", "token=<redacted>&page=2", "from the server", "q=cats")
	answers := []string{list}
	for id := 1; id <= 6; id++ {
		answers = append(answers, s.ok("get_console_message", map[string]any{"msgid": id}))
	}
	requests := s.ok("list_network_requests", nil)
	var upload int
	if _, err := fmt.Sscanf(pageLine(requests, "/api/upload"), "reqid=%d", &upload); err != nil {
		t.Fatalf("no upload request in:\n%s", requests)
	}
	body := s.ok("get_network_request", map[string]any{"reqid": upload})
	mustContain(t, body, `name="password"`, "<redacted>", `name="user"`, "me", "my apiKey: <redacted> here")
	answers = append(answers, body)
	// A script's alert is answered for the agent, and the answer says so;
	// one opened later stays open, and the next answers show it until it
	// is handled. An error thrown while a click settles is reported too.
	opened := s.ok("evaluate_script", map[string]any{"function": "() => { alert('your code is pin=s3cret-alert'); return true }"})
	mustContain(t, opened, "your code is pin=<redacted>")
	s.ok("evaluate_script", map[string]any{"function": `() => { document.body.insertAdjacentHTML('beforeend', '<button id=b>b</button>');
		document.getElementById('b').onclick = () => { setTimeout(() => { throw new Error('bad secret=s3cret-thrown') }, 0); setTimeout(() => alert('otp=s3cret-later'), 300) }; return true }`})
	clicked := s.ok("click", map[string]any{"uid": uidOf(t, s.ok("take_snapshot", nil), `button "b"`)})
	eventually(t, "the later alert", func() bool { return strings.Contains(text(s.call("take_snapshot", nil)), "otp=<redacted>") })
	answers = append(answers, opened, clicked, text(s.call("take_snapshot", nil)), s.ok("handle_dialog", map[string]any{"action": "accept"}))
	for _, a := range answers {
		if strings.Contains(a, "s3cret") {
			t.Errorf("a redacted answer shows a credential:\n%s", a)
		}
	}
}
