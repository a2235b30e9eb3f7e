package redact

import (
	"net/url"
	"strings"
	"testing"
)

func TestRedactionCoversTheCredentialClasses(t *testing.T) {
	for _, name := range []string{
		"Cookie", "Set-Cookie", "Authorization", "Proxy-Authorization", "Authentication-Info", "Proxy-Authentication-Info",
		"X-Api-Key", "X-Access-Key", "Ocp-Apim-Subscription-Key", "X-Goog-Api-Key", "apiKey", "api_key",
		"X-Session-Id", "X-Csrf-Token", "X-XSRF-TOKEN", "X-Amz-Security-Token", "X-Auth-Token", "X-Client-Secret",
		"Private-Token", "X-Password", "X-Signature", "x-hub-signature-256", "X-Sid", "X-Otp",
	} {
		if got := Header(name, "s3cret"); got != Value {
			t.Errorf("header %s: %q, want it redacted", name, got)
		}
	}
	for _, keep := range []string{"Content-Type", "Accept", "Keep-Alive", "User-Agent", "Cache-Control", "X-Keyword", "Author"} {
		if got := Header(keep, "text/html"); got != "text/html" {
			t.Errorf("header %s: %q, want it shown", keep, got)
		}
	}
	// A credential in a header of another name is hidden by its value.
	for _, v := range []string{"Bearer s3cret", "basic czNjcmV0", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.s3cret"} {
		if got := Header("X-Forwarded-Whatever", v); got != Value {
			t.Errorf("value %q: %q, want it redacted", v, got)
		}
	}

	for _, u := range []string{
		"https://api.example/v1?access_token=s3cret&page=2",
		"https://api.example/v1?page=2&API_KEY=s3cret",
		"https://api.example/cb?code=s3cret&state=xyz",
		"https://api.example/cb#id_token=s3cret&state=xyz",
		"https://api.example/v1?X-Amz-Signature=s3cret&X-Amz-Credential=s3cret",
		"https://user:s3cret@api.example/",
		"https://api.example/v1?sessionId=s3cret",
		"https://api.example/v1?auth%5Ftoken=s3cret",
	} {
		got := URL(u)
		if strings.Contains(got, "s3cret") {
			t.Errorf("URL(%s) = %s", u, got)
		}
	}
	if got := URL("https://api.example/v1?page=2&q=shoes#top"); got != "https://api.example/v1?page=2&q=shoes#top" {
		t.Errorf("a URL without credentials changed: %s", got)
	}
	if got := URL("https://api.example/v1?page=2&token=s3cret"); !strings.HasPrefix(got, "https://api.example/v1?page=2&token=") {
		t.Errorf("redaction changed the rest of the URL: %s", got)
	}

	for _, b := range []struct{ body, ctype string }{
		{"username=me&password=s3cret&remember=1", "application/x-www-form-urlencoded"},
		{"user=me&csrfmiddlewaretoken=s3cret", "application/x-www-form-urlencoded; charset=UTF-8"},
		{`{"user":"me","password":"s3cret"}`, "application/json"},
		{`{"grant_type":"refresh_token","refresh_token":"s3cret"}`, "text/plain"},
		{`[{"auth":{"apiKey":"s3cret"}}]`, "application/vnd.api+json"},
		{`{"access_token":"s3cret","expires_in":3600}`, ""},
	} {
		got := string(Body([]byte(b.body), b.ctype))
		if strings.Contains(got, "s3cret") {
			t.Errorf("Body(%s, %s) = %s", b.body, b.ctype, got)
		}
	}
	if got := string(Body([]byte(`{"q":"shoes","page":2}`), "application/json")); got != `{"q":"shoes","page":2}` {
		t.Errorf("a body without credentials changed: %s", got)
	}
}

// TestRedactionOfBodiesWhateverTheirType sends the credentials of a login
// in the bodies a page or a server can make of them, under every content
// type they arrive with: the form or JSON rule, and the free-text rule
// after it, leave none.
func TestRedactionOfBodiesWhateverTheirType(t *testing.T) {
	for _, b := range []struct{ body, ctype string }{
		{"user=a&password=s3cret", "application/x-www-form-urlencoded"},
		{"user=a&password=s3cret", "APPLICATION/X-WWW-FORM-URLENCODED;CHARSET=UTF-8"},
		{"user=a;password=s3cret", "application/x-www-form-urlencoded"},
		{"token=t&user=a;password=s3cret", "application/x-www-form-urlencoded"},
		{"user=a&pass%77ord=s3cret", "application/x-www-form-urlencoded"},
		{"user=a&password=s3cret", "text/plain;charset=UTF-8"},
		{"user=a&password=s3cret", ""},
		{"user=a&password=s3cret", "application/json"},
		{`{"user":"a","password":"s3cret"}`, "text/plain"},
		{`{"user":"a"}` + "\n" + `{"password":"s3cret"}`, "application/x-ndjson"},
		{`{"user":"a"}` + "\n" + `{"password":"s3cret"}`, "application/json"},
		{`[{"name":"user","value":"a"},{"name":"password","value":"s3cret"}]`, "application/json"},
		{`{"fields":[{"key":"otp","value":"s3cret"}]}`, "application/json; charset=utf-8"},
		{"<p>Welcome a, your password=s3cret</p>", "text/html"},
		{"data=%7B%22password%22%3A%22s3cret%22%7D&x=1", "application/x-www-form-urlencoded"},
		{"q=" + url.QueryEscape("token=s3cret"), "application/x-www-form-urlencoded"},
		{`{"query":"mutation { login(user: \"a\", password: \"s3cret\") { id } }"}`, "application/json"},
		{`{"next":"https://app.test/cb?access_token=s3cret"}`, "application/json"},
	} {
		if got := string(RequestBody([]byte(b.body), b.ctype)); strings.Contains(got, "s3cret") {
			t.Errorf("request body %q (%s) shown as %q", b.body, b.ctype, got)
		}
		if got := string(ResponseBody([]byte(b.body), b.ctype)); strings.Contains(got, "s3cret") {
			t.Errorf("response body %q (%s) shown as %q", b.body, b.ctype, got)
		}
	}
	for _, keep := range []struct{ body, ctype string }{
		{"q=shoes&page=2;size=9", "application/x-www-form-urlencoded"},
		{`[{"name":"q","value":"shoes"}]`, "application/json"},
		{"<p>Reset your password on the settings page</p>", "text/html"},
	} {
		if got := string(ResponseBody([]byte(keep.body), keep.ctype)); got != keep.body {
			t.Errorf("a body without credentials changed: %q -> %q", keep.body, got)
		}
	}
	// A query takes ";" between parameters too.
	if got := URL("https://api.test/x?a=1;token=s3cret"); strings.Contains(got, "s3cret") {
		t.Errorf("redactURL with ; = %s", got)
	}
}
