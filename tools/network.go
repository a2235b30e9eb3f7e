package tools

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
	"github.com/devtools-mcp/devtools-mcp/internal/redact"
)

// maxInlineBody is the most body text shown inline; longer bodies are cut
// with a note pointing to the file parameters.
const maxInlineBody = 10000

func networkTools() []*Tool {
	return []*Tool{
		define(Tool{
			Name: "list_network_requests", Description: "Lists the page's network requests since the last navigation.",
			Category: CategoryNetwork, ReadOnly: true, Scope: ScopePage,
		}, listNetworkRequests),
		define(Tool{
			Name: "get_network_request", Description: "Shows a request's headers and bodies (the latest document request when reqid is omitted).",
			Category: CategoryNetwork, Scope: ScopePage,
		}, getNetworkRequest),
	}
}

// listNetworkRequestsArgs are list_network_requests's arguments.
type listNetworkRequestsArgs struct {
	pageArgs
	ResourceTypes            []string `json:"resourceTypes,omitempty" enum:"document,stylesheet,image,media,font,script,texttrack,xhr,fetch,prefetch,eventsource,websocket,manifest,signedexchange,ping,cspviolationreport,preflight,fedcm,other" jsonschema:"Only requests of these types."`
	IncludePreservedRequests bool     `json:"includePreservedRequests,omitempty" jsonschema:"Also the requests of the last 3 navigations."`
}

// listNetworkRequests runs list_network_requests.
func listNetworkRequests(ctx context.Context, c *Call, args *listNetworkRequestsArgs) error {
	if _, err := c.Page.Session(ctx); err != nil { // collecting starts on attach
		return err
	}
	reqs := slices.DeleteFunc(c.Page.Collected().Requests(args.IncludePreservedRequests), func(r *browser.Request) bool {
		return len(args.ResourceTypes) > 0 && !slices.Contains(args.ResourceTypes, r.ResourceType)
	})
	c.Resp.Linef("## Network requests")
	if len(reqs) == 0 {
		c.Resp.Linef("No requests found.")
		return nil
	}
	shown, err := paginate(c, reqs, args.pageArgs)
	if err != nil {
		return err
	}
	structured := make([]networkRequestJSON, 0, len(shown))
	for _, r := range shown {
		if c.Server.opts.RedactHeaders {
			r = redactRequest(r)
		}
		c.Resp.Linef("%s", requestLine(r))
		structured = append(structured, newNetworkRequestJSON(r))
	}
	c.Resp.Set("networkRequests", structured)
	return nil
}

// getNetworkRequestArgs are get_network_request's arguments.
type getNetworkRequestArgs struct {
	ReqID            float64 `json:"reqid,omitempty" bound:"id" jsonschema:"reqid from list_network_requests; omitted: the latest document request."`
	RequestFilePath  string  `json:"requestFilePath,omitempty" path:"" jsonschema:"Save the request body to this file instead of showing it."`
	ResponseFilePath string  `json:"responseFilePath,omitempty" path:"" jsonschema:"Save the response body to this file instead of showing it."`
}

// getNetworkRequest runs get_network_request.
func getNetworkRequest(ctx context.Context, c *Call, args *getNetworkRequestArgs) error {
	if _, err := c.Page.Session(ctx); err != nil {
		return err
	}
	r, err := c.Page.Collected().Request(int(args.ReqID))
	if err != nil {
		return err
	}
	// With --redactNetworkHeaders everything shown comes from the redacted
	// copy (see internal/redact for the rule); the bodies are read with the
	// original.
	redacting := c.Server.opts.RedactHeaders
	orig := r
	if redacting {
		r = redactRequest(orig)
	}
	detail := &networkRequestDetail{networkRequestJSON: newNetworkRequestJSON(r), Failure: r.Failure,
		RequestHeaders: r.RequestHeaders, ResponseHeaders: r.ResponseHeaders}
	for _, hop := range r.Redirects {
		detail.RedirectChain = append(detail.RedirectChain, newNetworkRequestJSON(hop))
	}
	defer c.Resp.Set("networkRequest", detail)
	c.Resp.Linef("## Request %s", r.URL)
	c.Resp.Linef("Status: %s", r.State())
	c.Resp.Linef("### Request Headers")
	writeHeaders(c, r.RequestHeaders)
	if r.HasPostData {
		body, err := c.Page.Collected().RequestBody(ctx, orig)
		if redacting && err == nil {
			body = redact.RequestBody(body, header(orig.RequestHeaders, "Content-Type"))
		}
		c.Resp.Linef("### Request Body")
		writeBody(ctx, c, body, false, err, "requestFilePath", args.RequestFilePath)
		detail.RequestBody, detail.RequestBodyFilePath = structuredBody(body, false, err, args.RequestFilePath)
	}
	if r.ResponseHeaders != nil {
		c.Resp.Linef("### Response Headers")
		writeHeaders(c, r.ResponseHeaders)
	}
	// A response has arrived: its body is there once loading finishes,
	// which ResponseBody waits for.
	if r.Failure == "" && (r.Finished || r.Status != 0) {
		body, binary, err := c.Page.Collected().ResponseBody(ctx, orig)
		if redacting && err == nil && !binary {
			body = redact.ResponseBody(body, cmp.Or(header(orig.ResponseHeaders, "Content-Type"), orig.MimeType))
		}
		c.Resp.Linef("### Response Body")
		writeBody(ctx, c, body, binary, err, "responseFilePath", args.ResponseFilePath)
		detail.ResponseBody, detail.ResponseBodyFilePath = structuredBody(body, binary, err, args.ResponseFilePath)
	}
	if r.Failure != "" {
		c.Resp.Linef("### Request failed with")
		c.Resp.Linef("%s", r.Failure)
	}
	if len(r.Redirects) > 0 {
		c.Resp.Linef("### Redirect chain")
		for _, hop := range r.Redirects {
			c.Resp.Linef("%s %s [%d]", hop.Method, hop.URL, hop.Status)
		}
	}
	return nil
}

// requestLine is one line of list_network_requests.
func requestLine(r *browser.Request) string {
	return fmt.Sprintf("reqid=%d %s %s [%s]", r.ID, r.Method, r.URL, r.State())
}

// writeHeaders writes headers sorted by name.
func writeHeaders(c *Call, h map[string]string) {
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		c.Resp.Linef("- %s:%s", n, h[n])
	}
}

// writeBody shows a body inline (text, cut at maxInlineBody) or saves it
// to path.
func writeBody(ctx context.Context, c *Call, body []byte, binary bool, err error, arg, path string) {
	switch {
	case err != nil:
		c.Resp.Linef("<%v>", err)
	case path != "":
		if err := c.writeFile(ctx, arg, path, body); err != nil {
			c.Resp.Linef("<%v>", err)
			return
		}
		c.Resp.Linef("Saved to %s.", path)
	case binary || !utf8.Valid(body):
		c.Resp.Linef("<binary data, %d bytes; pass a file path to save it>", len(body))
	case len(body) > maxInlineBody:
		cut := body[:maxInlineBody]
		for !utf8.Valid(cut) {
			cut = cut[:len(cut)-1]
		}
		c.Resp.Linef("%s\n<... %d more bytes; pass a file path to save the whole body>", cut, len(body)-len(cut))
	default:
		c.Resp.Linef("%s", body)
	}
}
