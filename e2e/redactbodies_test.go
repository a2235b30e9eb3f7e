package e2e

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestRedactionHidesLoginBodiesOfEveryType has a page send a login the
// ways pages do (the form of the report, with a lower-case header; fields
// separated by ";"; a form's serializeArray as JSON; JSON lines sent as
// text; a form sent as text/plain) to a server that echoes each body back
// as text, and checks that under --redactNetworkHeaders neither
// list_network_requests nor get_network_request shows a password or
// token, in the request or in the echo.
func TestRedactionHidesLoginBodiesOfEveryType(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<title>Login</title>`)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", r.URL.Query().Get("echo"))
		w.Write(body)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)

	s := startServer(t, append(headless, "--redactNetworkHeaders")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval(`async () => {
		const form = 'application/x-www-form-urlencoded';
		await fetch('/api/login?access_token=T0ken-secret&echo=text/plain', {method: 'POST',
			headers: {'content-type': form}, body: 'user=a&password=P4ss-secret'});
		await fetch('/api/semi?echo=text/html', {method: 'POST', headers: {'Content-Type': form + ';charset=UTF-8'},
			body: 'user=a;password=P4ss-semi-secret'});
		await fetch('/api/array?echo=application/json', {method: 'POST', headers: {'CONTENT-TYPE': 'application/json'},
			body: JSON.stringify([{name: 'user', value: 'a'}, {name: 'password', value: 'P4ss-array-secret'}])});
		await fetch('/api/lines?echo=text/plain', {method: 'POST',
			body: '{"user":"a"}\n{"password":"P4ss-lines-secret"}'});
		await fetch('/api/text?echo=text/plain', {method: 'POST', body: new URLSearchParams({user: 'a', pin: 'P4ss-pin-secret'}).toString()});
		return true;
	}`)
	list := s.ok("list_network_requests", nil)
	answers := []string{list}
	for _, id := range regexp.MustCompile(`reqid=(\d+) POST`).FindAllStringSubmatch(list, -1) {
		var n int
		fmt.Sscan(id[1], &n)
		answers = append(answers, s.ok("get_network_request", map[string]any{"reqid": n}))
	}
	if len(answers) != 6 {
		t.Fatalf("want 5 POST requests listed:\n%s", list)
	}
	mustContain(t, answers[1], "### Request Body", "user=a&password=", "### Response Body")
	for _, a := range answers {
		if strings.Contains(a, "secret") {
			t.Errorf("a redacted answer shows a credential:\n%s", a)
		}
	}
}
