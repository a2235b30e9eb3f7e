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

// TestRedactionHidesFormBodiesHoweverSent has a page send logins by every
// way a browser posts a form: XHR and sendBeacon with FormData (multipart)
// and URLSearchParams (a form with "charset=UTF-8"), sendBeacon with a
// JSON Blob, fetch with the form as bytes, nested JSON with a charset, a
// multipart body whose boundary is not a token (unquoted "=" and ":",
// which MIME parsers refuse but servers take), and HTML forms submitted
// urlencoded, multipart and as text/plain. Under --redactNetworkHeaders no
// answer shows a password, token or key.
func TestRedactionHidesFormBodiesHoweverSent(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Forms</title><iframe name="sink"></iframe>`+
			`<form id="plain" method="post" action="/api/form-plain" target="sink"><input name="user" value="a"><input type="password" name="password" value="P4ss-form-secret"></form>`+
			`<form id="multi" method="post" action="/api/form-multi" enctype="multipart/form-data" target="sink"><input name="user" value="a"><input type="password" name="passwd" value="P4ss-formmulti-secret"></form>`+
			`<form id="text" method="post" action="/api/form-text" enctype="text/plain" target="sink"><input name="user" value="a"><input type="password" name="password" value="P4ss-formtext-secret"></form>`)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		fmt.Fprint(w, "ok")
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)

	s := startServer(t, append(headless, "--redactNetworkHeaders")...)
	s.ok("navigate_page", map[string]any{"url": site.URL})
	s.eval(`async () => {
		const xhr = (url, body, type) => new Promise(done => {
			const x = new XMLHttpRequest();
			x.open('POST', url);
			if (type) x.setRequestHeader('Content-Type', type);
			x.onloadend = done;
			x.send(body);
		});
		const fd = new FormData();
		fd.append('user', 'a');
		fd.append('password', 'P4ss-xhrmulti-secret');
		fd.append('upload', new Blob(['api_key=K3y-file-secret']), 'notes.txt');
		await xhr('/api/xhr-multi', fd);
		await xhr('/api/xhr-form', new URLSearchParams({user: 'a', password: 'P4ss-xhrform-secret'}));
		navigator.sendBeacon('/api/beacon-form', new URLSearchParams({user: 'a', api_token: 'T0k-beacon-secret'}));
		const bfd = new FormData();
		bfd.append('pin', 'P1n-beaconmulti-secret');
		navigator.sendBeacon('/api/beacon-multi', bfd);
		navigator.sendBeacon('/api/beacon-json', new Blob([JSON.stringify({login: {user: 'a', password: 'P4ss-beaconjson-secret'}})], {type: 'application/json; charset=UTF-8'}));
		await fetch('/api/bytes', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8'},
			body: new TextEncoder().encode('user=a&password=P4ss-bytes-secret')});
		await fetch('/api/nested', {method: 'POST', headers: {'Content-Type': 'application/json;charset=UTF-8'},
			body: JSON.stringify({auth: {user: 'a', pwd: 'P4ss-nested-secret'}, items: [{accessToken: 'T0k-nested-secret'}]})});
		for (const boundary of ['----=_Part_0:1', 'a=b']) {
			await fetch('/api/odd-boundary', {method: 'POST', headers: {'Content-Type': 'multipart/form-data; boundary=' + boundary},
				body: '--' + boundary + '\r\nContent-Disposition: form-data; name="password"\r\n\r\nP4ss-boundary-secret\r\n--' + boundary + '--\r\n'});
		}
		return true;
	}`)
	for _, id := range []string{"plain", "multi", "text"} {
		s.eval(`() => { document.getElementById('` + id + `').submit(); return new Promise(r => document.querySelector('iframe').onload = r); }`)
	}
	var list string
	eventually(t, "every request", func() bool {
		list = s.ok("list_network_requests", nil)
		return strings.Count(list, "/api/") >= 12
	})
	answers := []string{list}
	for _, id := range regexp.MustCompile(`reqid=(\d+) POST`).FindAllStringSubmatch(list, -1) {
		var n int
		fmt.Sscan(id[1], &n)
		answers = append(answers, s.ok("get_network_request", map[string]any{"reqid": n}))
	}
	if len(answers) < 13 {
		t.Fatalf("want 12 POST requests listed:\n%s", list)
	}
	for _, a := range answers {
		if strings.Contains(a, "secret") {
			t.Errorf("a redacted answer shows a credential:\n%s", a)
		}
	}
}
