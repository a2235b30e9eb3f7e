package browser

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Bounds of what a page keeps: the newest maxKept console messages and
// network requests, from the current document and the keptNavigations
// before it. Their cost does not grow with the session.
const (
	maxKept         = 1000
	keptNavigations = 3
)

// ConsoleMessage is one console entry: a console API call, an uncaught
// exception, a browser log entry or a DevTools issue (Type "issue").
type ConsoleMessage struct {
	ID    int
	Type  string
	Text  string
	Args  []cdp.RemoteObject
	Stack *cdp.StackTrace
	// Source is where a browser log entry came from (Log.entryAdded's
	// source: "violation", "network", "intervention"...), "exception"
	// for an uncaught exception, "" for the page's own console calls.
	Source string
	// URL and Line locate a browser log entry without a stack.
	URL  string
	Line int
	// Issue is a DevTools issue's details (JSON), for Type "issue".
	Issue json.RawMessage
	nav   int

	session *cdp.Session // the session it came on, where the arguments live
}

// ArgJSON renders argument i of m in full, as JSON read from the page
// while the object is still alive, or from its preview otherwise.
func (col Collected) ArgJSON(ctx context.Context, m *ConsoleMessage, i int) string {
	a := m.Args[i]
	if a.ObjectID != "" && a.Subtype != "error" && a.Subtype != "node" && m.session != nil {
		if s, err := col.page.toJSON(ctx, m.session, a, false); err == nil {
			return s
		}
	}
	return FormatValue(a)
}

// Request is one network request of the page, with its redirect chain.
type Request struct {
	ID              int
	Method          string
	URL             string
	ResourceType    string
	Status          int
	StatusText      string
	MimeType        string
	Failure         string
	Finished        bool
	RequestHeaders  map[string]string
	ResponseHeaders map[string]string
	HasPostData     bool
	// Redirects are the earlier hops, oldest first.
	Redirects []*Request
	// Start and End are monotonic timestamps in seconds.
	Start, End float64
	Size       float64

	requestID string
	session   *cdp.Session
	nav       int
	live      *Request // of a copy (snapshot): the request the collector updates
}

// snapshot returns a copy of r, its headers and redirect hops included,
// that the collector never writes to: a tool reads it without the
// collector's lock while events keep updating r. Called with the
// collector's lock held.
func (r *Request) snapshot() *Request {
	cp := *r
	cp.RequestHeaders = maps.Clone(r.RequestHeaders)
	cp.ResponseHeaders = maps.Clone(r.ResponseHeaders)
	cp.Redirects = make([]*Request, len(r.Redirects))
	for i, hop := range r.Redirects {
		cp.Redirects[i] = hop.snapshot()
	}
	cp.live = r
	return &cp
}

// State renders the state of the request as list_network_requests
// shows it: the HTTP status, "pending", or "failed - reason".
func (r *Request) State() string {
	switch {
	case r.Failure != "":
		return "failed - " + r.Failure
	case r.Status == 0:
		return "pending"
	}
	return fmt.Sprint(r.Status)
}

// collector keeps a page's console messages and network requests.
type collector struct {
	mu       sync.Mutex
	nav      int // current document's generation
	console  []*ConsoleMessage
	requests []*Request
	live     map[string]*Request // by CDP request id, for requests still kept
	// early holds the headers of ExtraInfo events that arrived before
	// their request (Chromium sends them from another process, in no set
	// order), oldest first, at most maxEarly.
	early     []earlyHeaders
	lastMsg   int
	lastReq   int
	mainFrame string
	// finished is closed (and cleared) when a request finishes or fails,
	// for callers waiting on one; nil when nobody waits.
	finished chan struct{}
}

// requestEnded wakes the callers waiting for a request to finish; c.mu is
// held.
func (c *collector) requestEnded() {
	if c.finished != nil {
		close(c.finished)
		c.finished = nil
	}
}

// maxEarly bounds collector.early: ExtraInfo events whose request never
// shows up (another session's, say) must not pile up.
const maxEarly = 100

// earlyHeaders are the headers of an ExtraInfo event kept until its request
// is known.
type earlyHeaders struct {
	requestID string
	response  bool // from responseReceivedExtraInfo, else requestWillBeSentExtraInfo
	headers   map[string]string
}

// addHeaders merges wire headers into r's request or response headers.
func (r *Request) addHeaders(response bool, headers map[string]string) {
	if response {
		r.ResponseHeaders = mergeHeaders(r.ResponseHeaders, headers)
	} else {
		r.RequestHeaders = mergeHeaders(r.RequestHeaders, headers)
	}
}

// onEvent records what an event of session s tells. It runs on the CDP
// reader goroutine.
func (c *collector) onEvent(s *cdp.Session, method string, params json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch method {
	case cdp.RuntimeConsoleAPICalled.Method:
		if ev, err := cdp.RuntimeConsoleAPICalled.Decode(params); err == nil {
			c.addMessage(&ConsoleMessage{Type: consoleType(ev.Type), Text: formatArgs(ev.Args), Args: ev.Args, Stack: ev.StackTrace, session: s})
		}
	case cdp.RuntimeExceptionThrown.Method:
		if ev, err := cdp.RuntimeExceptionThrown.Decode(params); err == nil {
			d := ev.ExceptionDetails
			c.addMessage(&ConsoleMessage{Type: "error", Text: exceptionText(&d), Stack: d.StackTrace, Source: "exception", session: s})
		}
	case cdp.LogEntryAdded.Method:
		if ev, err := cdp.LogEntryAdded.Decode(params); err == nil {
			typ := map[string]string{"verbose": "verbose", "info": "info", "warning": "warn", "error": "error"}[ev.Entry.Level]
			c.addMessage(&ConsoleMessage{Type: cmp.Or(typ, "log"), Text: ev.Entry.Text, Stack: ev.Entry.StackTrace,
				Source: ev.Entry.Source, URL: ev.Entry.URL, Line: ev.Entry.LineNumber, session: s})
		}
	case cdp.AuditsIssueAdded.Method:
		if ev, err := cdp.AuditsIssueAdded.Decode(params); err == nil {
			// Chrome reports some issues again as the page changes: keep one.
			text := issueText(ev.Issue.Code, ev.Issue.Details)
			details, _ := json.Marshal(ev.Issue.Details)
			if !slices.ContainsFunc(c.console, func(m *ConsoleMessage) bool {
				return m.nav == c.nav && m.Type == "issue" && m.Text == text && bytes.Equal(m.Issue, details)
			}) {
				c.addMessage(&ConsoleMessage{Type: "issue", Text: text, Issue: details, session: s})
			}
		}
	case cdp.PageFrameNavigated.Method:
		if ev, err := cdp.PageFrameNavigated.Decode(params); err == nil && ev.Frame.ParentID == "" && ev.Frame.ID == c.mainFrame {
			c.newDocument(ev.Frame.LoaderID)
		}
	case cdp.NetworkRequestWillBeSent.Method:
		ev, err := cdp.NetworkRequestWillBeSent.Decode(params)
		if err != nil {
			return
		}
		r := &Request{Method: ev.Request.Method, URL: ev.Request.URL, ResourceType: strings.ToLower(ev.Type),
			RequestHeaders: ev.Request.Headers, HasPostData: ev.Request.HasPostData, Start: ev.Timestamp,
			requestID: ev.RequestID, session: s, nav: c.nav}
		if prev := c.live[ev.RequestID]; prev != nil && ev.RedirectResponse != nil {
			// A redirect: the previous hop ends here and the new one
			// takes its place in the list.
			prev.fill(*ev.RedirectResponse)
			prev.Finished, prev.End = true, ev.Timestamp
			r.Redirects = append(slices.Clip(prev.Redirects), prev)
			prev.Redirects = nil
			r.ID = prev.ID
			c.requests[slices.Index(c.requests, prev)] = r
			c.live[ev.RequestID] = r
			return
		}
		c.lastReq++
		r.ID = c.lastReq
		c.requests = append(c.requests, r)
		c.live[ev.RequestID] = r
		c.early = slices.DeleteFunc(c.early, func(e earlyHeaders) bool {
			if e.requestID == ev.RequestID {
				r.addHeaders(e.response, e.headers)
				return true
			}
			return false
		})
		if len(c.requests) > maxKept {
			c.trim()
		}
	case cdp.NetworkResponseReceived.Method:
		if ev, err := cdp.NetworkResponseReceived.Decode(params); err == nil {
			if r := c.live[ev.RequestID]; r != nil {
				r.fill(ev.Response)
			}
		}
	case cdp.NetworkRequestWillBeSentExtraInfo.Method, cdp.NetworkResponseReceivedExtraInfo.Method:
		// The headers as sent on the wire, with cookies the others lack.
		var ev struct {
			RequestID string            `json:"requestId"`
			Headers   map[string]string `json:"headers"`
		}
		if json.Unmarshal(params, &ev) != nil {
			return
		}
		response := method == cdp.NetworkResponseReceivedExtraInfo.Method
		if r := c.live[ev.RequestID]; r != nil {
			r.addHeaders(response, ev.Headers)
			return
		}
		if len(c.early) == maxEarly {
			c.early = c.early[1:]
		}
		c.early = append(c.early, earlyHeaders{ev.RequestID, response, ev.Headers})
	case cdp.NetworkLoadingFinished.Method:
		if ev, err := cdp.NetworkLoadingFinished.Decode(params); err == nil {
			if r := c.live[ev.RequestID]; r != nil {
				r.Finished, r.End, r.Size = true, ev.Timestamp, ev.EncodedDataLength
				c.requestEnded()
			}
		}
	case cdp.NetworkLoadingFailed.Method:
		if ev, err := cdp.NetworkLoadingFailed.Decode(params); err == nil {
			if r := c.live[ev.RequestID]; r != nil {
				r.Failure, r.Finished, r.End = cmp.Or(ev.BlockedReason, ev.ErrorText), true, ev.Timestamp
				c.requestEnded()
			}
		}
	}
}

// fill copies what a response says into the request.
func (r *Request) fill(resp cdp.NetworkResponse) {
	r.Status, r.StatusText, r.MimeType = resp.Status, resp.StatusText, resp.MimeType
	r.ResponseHeaders = mergeHeaders(r.ResponseHeaders, resp.Headers)
}

// mergeHeaders adds the headers of more to h (a new map when h is nil),
// keeping one spelling per header name.
func mergeHeaders(h, more map[string]string) map[string]string {
	if h == nil {
		h = make(map[string]string, len(more))
	}
	for k, v := range more {
		for old := range h {
			if strings.EqualFold(old, k) && old != k {
				delete(h, old)
			}
		}
		h[k] = v
	}
	return h
}

// addMessage numbers and keeps m.
func (c *collector) addMessage(m *ConsoleMessage) {
	c.lastMsg++
	m.ID, m.nav = c.lastMsg, c.nav
	c.console = append(c.console, m)
	if len(c.console) > maxKept {
		c.console = slices.Delete(c.console, 0, len(c.console)-maxKept)
	}
}

// newDocument starts a new generation: the document request of loader
// belongs to it, and generations beyond keptNavigations are dropped.
func (c *collector) newDocument(loader string) {
	c.nav++
	if r := c.live[loader]; r != nil {
		r.nav = c.nav
	}
	c.trim()
}

// trim drops what is beyond the bounds: old generations and the oldest
// entries past maxKept.
func (c *collector) trim() {
	oldest := c.nav - keptNavigations
	c.console = slices.DeleteFunc(c.console, func(m *ConsoleMessage) bool { return m.nav < oldest })
	if over := len(c.console) - maxKept; over > 0 {
		c.console = slices.Delete(c.console, 0, over)
	}
	c.requests = slices.DeleteFunc(c.requests, func(r *Request) bool { return r.nav < oldest })
	if over := len(c.requests) - maxKept; over > 0 {
		c.requests = slices.Delete(c.requests, 0, over)
	}
	if len(c.live) > len(c.requests) {
		kept := make(map[string]*Request, len(c.requests))
		for _, r := range c.requests {
			kept[r.requestID] = r
		}
		c.live = kept
	}
}

// ConsoleMessages returns the page's console messages of the current
// document, or of the kept earlier ones too, oldest first.
func (col Collected) ConsoleMessages(preserved bool) []*ConsoleMessage {
	col.page.sessions().synced()
	c := &col.page.collected
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*ConsoleMessage
	for _, m := range c.console {
		if preserved || m.nav == c.nav {
			out = append(out, m)
		}
	}
	return out
}

// ConsoleMessage returns the kept message with id.
func (col Collected) ConsoleMessage(id int) (*ConsoleMessage, error) {
	col.page.sessions().synced()
	c := &col.page.collected
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.console {
		if m.ID == id {
			return m, nil
		}
	}
	return nil, fmt.Errorf("no console message with msgid %d; it may be older than the %d newest or from before the last %d navigations; call list_console_messages", id, maxKept, keptNavigations)
}

// Requests returns the page's network requests of the current document, or
// of the kept earlier ones too, in the order they started.
func (col Collected) Requests(preserved bool) []*Request {
	col.page.sessions().synced()
	c := &col.page.collected
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*Request
	for _, r := range c.requests {
		if preserved || r.nav == c.nav {
			out = append(out, r.snapshot())
		}
	}
	return out
}

// Request returns the kept request with id; id 0 means the latest document
// request.
func (col Collected) Request(id int) (*Request, error) {
	col.page.sessions().synced()
	c := &col.page.collected
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.requests) - 1; i >= 0; i-- {
		r := c.requests[i]
		if r.ID == id || (id == 0 && r.ResourceType == "document") {
			return r.snapshot(), nil
		}
	}
	if id == 0 {
		return nil, fmt.Errorf("no document request is kept for this page; give a reqid from list_network_requests")
	}
	return nil, fmt.Errorf("no network request with reqid %d; it may be older than the %d newest or from before the last %d navigations; call list_network_requests", id, maxKept, keptNavigations)
}

// consoleType maps Runtime console call types to the names agents filter
// by: the same, except warning is warn.
func consoleType(t string) string {
	if t == "warning" {
		return "warn"
	}
	return t
}

// exceptionText is the one-line message of an uncaught exception.
func exceptionText(d *cdp.ExceptionDetails) string {
	msg := firstLine(d.Message())
	if !strings.HasPrefix(msg, "Uncaught") {
		msg = "Uncaught " + msg
	}
	return msg
}

// issueText names a DevTools issue: its code and, when the details say,
// the specific error.
func issueText(code string, details map[string]json.RawMessage) string {
	keys := make([]string, 0, len(details))
	for k := range details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var d struct {
			ErrorType       string `json:"errorType"`
			ViolationType   string `json:"violationType"`
			Reason          string `json:"reason"`
			ContentSecurity string `json:"contentSecurityPolicyViolationType"`
		}
		if json.Unmarshal(details[k], &d) == nil {
			if extra := cmp.Or(d.ErrorType, d.ViolationType, d.ContentSecurity, d.Reason); extra != "" {
				return strings.TrimSuffix(code, "Issue") + ": " + extra
			}
		}
	}
	return strings.TrimSuffix(code, "Issue")
}

// ResponseBody fetches the response body of r from the browser, which
// keeps recent bodies: nothing is stored on our side. binary says the body
// is not text.
func (col Collected) ResponseBody(ctx context.Context, r *Request) (body []byte, binary bool, err error) {
	// Chrome has the body only once loading finished; a request listed
	// with its status may still be receiving it.
	col.awaitFinished(ctx, r, bodyWait)
	res, err := cdp.NetworkGetResponseBody.Call(ctx, r.session, cdp.RequestIDParams{RequestID: r.requestID})
	if err != nil {
		return nil, false, fmt.Errorf("response body of reqid %d is not available (the browser drops bodies of old, redirected or failed requests): %w", r.ID, err)
	}
	if !res.Base64Encoded {
		return []byte(res.Body), false, nil
	}
	body, err = base64.StdEncoding.DecodeString(res.Body)
	return body, true, err
}

// bodyWait bounds how long ResponseBody waits for a request still loading
// (a stream or a long download may never finish).
const bodyWait = 3 * time.Second

// awaitFinished waits until r has finished or failed, at most max or
// until ctx ends.
func (col Collected) awaitFinished(ctx context.Context, r *Request, max time.Duration) {
	c := &col.page.collected
	if r.live != nil {
		r = r.live
	}
	timer := time.NewTimer(max)
	defer timer.Stop()
	for {
		c.mu.Lock()
		if r.Finished {
			c.mu.Unlock()
			return
		}
		if c.finished == nil {
			c.finished = make(chan struct{})
		}
		ch := c.finished
		c.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// RequestBody fetches the body (POST data) that r sent.
func (col Collected) RequestBody(ctx context.Context, r *Request) ([]byte, error) {
	res, err := cdp.NetworkGetRequestPostData.Call(ctx, r.session, cdp.RequestIDParams{RequestID: r.requestID})
	if err != nil {
		return nil, fmt.Errorf("request body of reqid %d is not available: %w", r.ID, err)
	}
	return []byte(res.PostData), nil
}
