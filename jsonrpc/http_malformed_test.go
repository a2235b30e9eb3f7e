package jsonrpc

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTPMalformedRequests(t *testing.T) {
	s := startHTTP(t, fakeHandler{"echo": echoTool}, HTTPOptions{})
	session := s.client()
	session.initialize("alpha", nil)

	tests := []struct {
		name    string
		method  string
		body    string
		header  map[string]string
		noSess  bool // send without the session's headers
		status  int
		code    int
		mention string // the error message must contain this
	}{
		{name: "batch array", body: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
			status: 400, code: CodeInvalidRequest, mention: "batch"},
		{name: "empty batch", body: `[]`, status: 400, code: CodeInvalidRequest, mention: "batch"},
		{name: "empty body", body: " ", status: 400, code: CodeParseError, mention: "empty"},
		{name: "not JSON", body: `{"jsonrpc":"2.0",`, status: 400, code: CodeParseError, mention: "not valid JSON"},
		{name: "two messages", body: `{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`,
			status: 400, code: CodeParseError},
		{name: "a string", body: `"ping"`, status: 400, code: CodeInvalidRequest, mention: "a string"},
		{name: "JSON-RPC 1.0", body: `{"jsonrpc":"1.0","id":1,"method":"ping"}`,
			status: 400, code: CodeInvalidRequest, mention: `"2.0"`},
		{name: "null id", body: `{"jsonrpc":"2.0","id":null,"method":"ping"}`,
			status: 400, code: CodeInvalidRequest, mention: "null"},
		{name: "response without id", body: `{"jsonrpc":"2.0","result":{}}`,
			status: 400, code: CodeInvalidRequest, mention: "id"},
		{name: "no session id", noSess: true, body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`,
			status: 400, code: CodeInvalidRequest, mention: headerSessionID},
		{name: "notification without session", noSess: true, body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			status: 400, code: CodeInvalidRequest, mention: headerSessionID},
		{name: "unknown session", header: map[string]string{headerSessionID: "NOSUCHSESSION"},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 404, code: codeSessionNotFound},
		{name: "unsupported protocol version", header: map[string]string{headerProtocolVersion: "2023-01-01"},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 400, code: CodeInvalidRequest, mention: "2025-11-25"},
		{name: "Accept without event streams", header: map[string]string{"Accept": "application/json"},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 406, code: CodeInvalidRequest, mention: "text/event-stream"},
		{name: "form body", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 415, code: CodeInvalidRequest},
		{name: "text body", header: map[string]string{"Content-Type": "text/plain;charset=UTF-8"},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 415, code: CodeInvalidRequest},
		{name: "no Content-Type, as an untyped Blob sends", header: map[string]string{"Content-Type": ""},
			body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, status: 415, code: CodeInvalidRequest, mention: "application/json"},
		{name: "GET without event streams", method: http.MethodGet, header: map[string]string{"Accept": "application/json"},
			status: 406, code: CodeInvalidRequest},
		{name: "GET without session", method: http.MethodGet, noSess: true, status: 400, code: CodeInvalidRequest},
		{name: "DELETE without session", method: http.MethodDelete, noSess: true, status: 400, code: CodeInvalidRequest},
		{name: "PUT", method: http.MethodPut, status: 405, code: CodeInvalidRequest, mention: "POST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := s.client()
			if !tt.noSess {
				c.session = session.session
			}
			for k, v := range tt.header {
				c.header[k] = v
			}
			method := tt.method
			if method == "" {
				method = http.MethodPost
			}
			e := httpErrorBody(t, c.do(method, tt.body), tt.status)
			if e.Code != tt.code || !strings.Contains(e.Message, tt.mention) {
				t.Errorf("error %d %q, want code %d mentioning %q", e.Code, e.Message, tt.code, tt.mention)
			}
		})
	}

	// Lenient where HTTP allows it: no Accept at all, and wildcards, are
	// fine.
	for _, h := range []map[string]string{
		{"Accept": ""},
		{"Content-Type": "Application/JSON"},
		{"Accept": "*/*"},
		{"Accept": "application/*, text/*;q=0.5"},
		{"Content-Type": "application/json; charset=utf-8"},
	} {
		c := s.client()
		c.session = session.session
		for k, v := range h {
			c.header[k] = v
		}
		single(t, c.post(request(1, "ping", nil)))
	}

	// A broken message does not hurt the session.
	if text, _ := toolText(t, single(t, session.callTool(9, "echo", map[string]int{"n": 1}, nil))); text != `{"n":1}` {
		t.Errorf("echo after the malformed requests answered %q", text)
	}
}

// FuzzHTTPPost posts arbitrary bodies to a live session and checks that
// the handler neither panics nor hangs, that it answers with a status the
// transport defines, and that every body it sends is JSON or an event
// stream of JSON messages.
func FuzzHTTPPost(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":1},"_meta":{"progressToken":1}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`[1,2`,
		``,
		`null`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	} {
		f.Add([]byte(seed))
	}
	h := NewHTTPHandler(NewServer(ServerInfo{Name: "fuzz", Version: "1"}, fuzzHandler{}), HTTPOptions{MaxBodyBytes: 4096})
	f.Cleanup(func() { _ = h.Close() })
	post := func(body []byte, session string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8931/mcp", bytes.NewReader(body))
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
		if session != "" {
			req.Header.Set(headerSessionID, session)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	init := post([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`), "")
	session := init.Header().Get(headerSessionID)
	if init.Code != http.StatusOK || session == "" {
		f.Fatalf("initialize: %d %s", init.Code, init.Body)
	}

	f.Fuzz(func(t *testing.T, body []byte) {
		rec := post(body, session)
		switch rec.Code {
		case http.StatusOK, http.StatusAccepted, http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		case http.StatusNotFound: // the body ended the session? Only DELETE may.
			t.Fatalf("status 404 for %q", body)
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		out := rec.Body.Bytes()
		switch ct := rec.Header().Get("Content-Type"); {
		case rec.Code == http.StatusAccepted:
			if len(out) != 0 {
				t.Fatalf("202 with a body %q", out)
			}
		case ct == "application/json":
			if !json.Valid(out) {
				t.Fatalf("invalid JSON answer %q for %q", out, body)
			}
		case ct == "text/event-stream":
			for line := range strings.SplitSeq(string(out), "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok && !json.Valid([]byte(data)) {
					t.Fatalf("invalid JSON event %q for %q", data, body)
				}
			}
		default:
			t.Fatalf("Content-Type %q for %q", ct, body)
		}
	})
}
