package tools

import (
	"errors"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/redact"
)

// header returns the value of header name in h, matched regardless of case.
func header(h map[string]string, name string) string {
	for n, v := range h {
		if strings.EqualFold(n, name) {
			return v
		}
	}
	return ""
}

// redactRequest returns a copy of r as redaction shows it: URL and headers
// (its redirect hops' too) without credentials.
func redactRequest(r *browser.Request) *browser.Request {
	cp := *r
	cp.URL = redact.URL(r.URL)
	cp.RequestHeaders = redact.Headers(r.RequestHeaders)
	cp.ResponseHeaders = redact.Headers(r.ResponseHeaders)
	cp.Redirects = make([]*browser.Request, len(r.Redirects))
	for i, hop := range r.Redirects {
		cp.Redirects[i] = redactRequest(hop)
	}
	return &cp
}

// pageText returns text a page wrote (a console message, a dialog's
// message) as the call shows it: with its credentials hidden under
// --redactNetworkHeaders.
func (c *Call) pageText(s string) string {
	if c == nil || c.Server == nil || !c.Server.opts.RedactHeaders {
		return s
	}
	return redact.Text(s)
}

// redactDialog returns err, a call's error, with the message of the dialog
// that stopped the call redacted as page text is.
func (c *Call) redactDialog(err error) error {
	var de *browser.DialogError
	if !errors.As(err, &de) || de.Dialog == nil {
		return err
	}
	d := *de.Dialog
	d.Message = c.pageText(d.Message)
	return &browser.DialogError{Dialog: &d}
}
