package redact

import (
	"strings"
	"testing"
)

// TestRedactTextHidesCredentialsInFreeText feeds console-style lines with
// the credentials a page logs, and lines that hold none, which must stay
// as they are.
func TestRedactTextHidesCredentialsInFreeText(t *testing.T) {
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNlY3JldA"
	for in, want := range map[string]string{
		"Authorization: Bearer abc123XYZ.secret":       "Authorization: <redacted>",
		"sending Bearer abc123XYZ.secret to the API":   "sending Bearer <redacted> to the API",
		"auth header Basic dXNlcjpwYXNzd29yZA==":       "auth header Basic <redacted>",
		"token=s3cr3t&page=2":                          "token=<redacted>&page=2",
		`{"password":"hunter2","user":"bob"}`:          `{"password":"<redacted>","user":"bob"}`,
		"apiKey: 'k-123', region: 'eu'":                "apiKey: '<redacted>', region: 'eu'",
		"X-Access-Key=AKIA1234":                        "X-Access-Key=<redacted>",
		"got " + jwt + " back":                         "got <redacted> back",
		"GET https://api.test/x?access_token=t0k&b=1":  "GET https://api.test/x?access_token=<redacted>&b=1",
		"see https://me:pa55@host.test/path":           "see https://me:redacted@host.test/path",
		"Set-Cookie: sid=abc123; Path=/":               "Set-Cookie: <redacted>; Path=/",
		"session=abc; theme=dark":                      "session=<redacted>; theme=dark",
		"Basic authentication is off":                  "Basic authentication is off",
		"Bearer tokens expire":                         "Bearer tokens expire",
		"status: 200, url: https://example.test/a?b=c": "status: 200, url: https://example.test/a?b=c",
		"x = 1; y = 2":                                 "x = 1; y = 2",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestRedactMultipartHidesSensitiveParts checks a multipart/form-data body
// as Chrome reports it: the parts named like credentials lose their value,
// the others keep theirs (minus credentials in their text), and the layout
// is kept.
func TestRedactMultipartHidesSensitiveParts(t *testing.T) {
	b := "----WebKitFormBoundaryA1"
	body := strings.Join([]string{
		"--" + b, `Content-Disposition: form-data; name="user"`, "", "bob",
		"--" + b, `Content-Disposition: form-data; name="password"`, "", "hunter2",
		"--" + b, `Content-Disposition: form-data; name="note"`, "", "my token=abc123 is here",
		"--" + b, `Content-Disposition: form-data; name="upload"; filename="private.key"`, "Content-Type: application/octet-stream", "", "-----BEGIN KEY-----",
		"--" + b + "--", "",
	}, "\r\n")
	got := string(Body([]byte(body), "multipart/form-data; boundary="+b))
	want := strings.Join([]string{
		"--" + b, `Content-Disposition: form-data; name="user"`, "", "bob",
		"--" + b, `Content-Disposition: form-data; name="password"`, "", "<redacted>",
		"--" + b, `Content-Disposition: form-data; name="note"`, "", "my token=<redacted> is here",
		"--" + b, `Content-Disposition: form-data; name="upload"; filename="private.key"`, "Content-Type: application/octet-stream", "", "<redacted>",
		"--" + b + "--", "",
	}, "\r\n")
	if got != want {
		t.Errorf("redacted multipart body:\n%q\nwant\n%q", got, want)
	}
}
