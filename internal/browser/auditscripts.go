package browser

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"unicode/utf16"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/audit"
)

// auditScripts reads the scripts the page loaded from the network for
// valid-source-maps: each one's length from its response body and the
// source map it names (SourceMap or X-SourceMap header, or its last
// sourceMappingURL comment, its length counted in UTF-16 code units as V8
// counts a script's); the maps are loaded through the browser and
// parsed, as Lighthouse loads them. When a body cannot be
// read (the browser dropped it) the scripts are not known.
func (p *Page) auditScripts(ctx context.Context, in *audit.Input) {
	s, err := p.Session(ctx)
	if err != nil {
		return
	}
	col := p.Collected()
	var scripts []audit.Script
	for _, r := range col.Requests(false) {
		u, err := url.Parse(r.URL)
		if r.ResourceType != "script" || err != nil || u.Scheme != "http" && u.Scheme != "https" || r.Failure != "" || r.Status >= 400 {
			continue
		}
		body, _, err := col.ResponseBody(ctx, r)
		if err != nil {
			return
		}
		sc := audit.Script{URL: r.URL, Length: len(utf16.Encode([]rune(string(body))))}
		ref := ""
		for k, v := range r.ResponseHeaders {
			if strings.EqualFold(k, "sourcemap") || strings.EqualFold(k, "x-sourcemap") {
				ref = strings.TrimSpace(v)
			}
		}
		if ref == "" {
			if m := sourceMappingURL.FindAllStringSubmatch(string(body), -1); m != nil {
				ref = m[len(m)-1][1]
			}
		}
		if ref != "" {
			if mu, err := u.Parse(ref); err != nil {
				sc.MapURL, sc.MapError = ref, "The source map URL is not valid"
			} else {
				sc.MapURL = mu.String()
				sc.MapError = p.checkSourceMap(ctx, col, s, mu)
			}
		}
		scripts = append(scripts, sc)
	}
	in.Scripts, in.ScriptsKnown = scripts, true
}

// checkSourceMap loads and parses the source map at u, "" when it is a
// version 3 map, else what went wrong.
func (p *Page) checkSourceMap(ctx context.Context, col Collected, s *cdp.Session, u *url.URL) string {
	var data []byte
	var err error
	if u.Scheme == "data" {
		meta, payload, ok := strings.Cut(u.Opaque, ",")
		switch {
		case !ok:
			return "The source map data URL has no data"
		case strings.HasSuffix(meta, ";base64"):
			data, err = base64.StdEncoding.DecodeString(payload)
		default:
			var text string
			text, err = url.PathUnescape(payload)
			data = []byte(text)
		}
	} else {
		data, err = col.loadResource(ctx, s, u.String())
	}
	if err != nil {
		return "Failed fetching source map (" + err.Error() + ")"
	}
	if _, err := ParseSourceMap(data, u.String()); err != nil {
		return "Failed parsing source map (" + err.Error() + ")"
	}
	return ""
}
