package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// SourceMap is a parsed source map (version 3): for each generated line,
// segments that map generated columns to original positions.
type SourceMap struct {
	sources []string
	lines   [][]mapping
}

// mapping is one segment: a generated column and where it came from.
type mapping struct {
	genCol, src, line, col int
}

// ParseSourceMap parses a version 3 source map. base resolves relative
// source URLs (the map's own URL).
func ParseSourceMap(data []byte, base string) (*SourceMap, error) {
	var raw struct {
		Version    int      `json:"version"`
		SourceRoot string   `json:"sourceRoot"`
		Sources    []string `json:"sources"`
		Mappings   string   `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map version %d; only version 3 is supported", raw.Version)
	}
	sm := &SourceMap{}
	baseURL, _ := url.Parse(base)
	for _, s := range raw.Sources {
		s = raw.SourceRoot + s
		if u, err := url.Parse(s); err == nil && baseURL != nil {
			s = baseURL.ResolveReference(u).String()
		}
		sm.sources = append(sm.sources, s)
	}
	var state [5]int // generated column (reset per line), source, line, column, name
	for _, line := range strings.Split(raw.Mappings, ";") {
		state[0] = 0
		var segs []mapping
		for _, seg := range strings.Split(line, ",") {
			if seg == "" {
				continue
			}
			fields, err := decodeVLQ(seg)
			if err != nil {
				return nil, fmt.Errorf("source map mappings: %w", err)
			}
			for i, f := range fields {
				if i < len(state) {
					state[i] += f
				}
			}
			if len(fields) >= 4 && state[1] >= 0 && state[1] < len(sm.sources) {
				segs = append(segs, mapping{genCol: state[0], src: state[1], line: state[2], col: state[3]})
			}
		}
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].genCol < segs[j].genCol })
		sm.lines = append(sm.lines, segs)
	}
	return sm, nil
}

// decodeVLQ decodes one base64 VLQ segment into its numbers.
func decodeVLQ(s string) ([]int, error) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []int
	value, shift := 0, 0
	for _, c := range s {
		digit := strings.IndexRune(alphabet, c)
		if digit < 0 {
			return nil, fmt.Errorf("bad character %q", c)
		}
		if shift > 30 {
			return nil, errors.New("number too large")
		}
		value |= (digit & 31) << shift
		if digit&32 != 0 {
			shift += 5
			continue
		}
		if value&1 != 0 {
			out = append(out, -(value >> 1))
		} else {
			out = append(out, value>>1)
		}
		value, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("segment ends mid-number")
	}
	return out, nil
}

// Lookup maps a generated position (0-based) to the original source URL
// and 0-based line and column.
func (sm *SourceMap) Lookup(line, col int) (src string, origLine, origCol int, ok bool) {
	if line < 0 || line >= len(sm.lines) {
		return "", 0, 0, false
	}
	segs := sm.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > col }) - 1
	if i < 0 {
		return "", 0, 0, false
	}
	m := segs[i]
	return sm.sources[m.src], m.line, m.col, true
}

// sourceMaps caches the maps of a page's scripts (nil when a script has
// none), bounded so a long session does not grow it.
type sourceMaps struct {
	mu   sync.Mutex
	maps map[string]*SourceMap
}

var sourceMappingURL = regexp.MustCompile(`(?m)^//[#@] sourceMappingURL=(\S+)\s*$`)

// MapFrame returns the frame at its original position when the script it
// is in has a source map, else the frame unchanged; with --no-source-maps
// always unchanged, and no map is fetched.
func (col Collected) MapFrame(ctx context.Context, f cdp.CallFrame) cdp.CallFrame {
	if col.page.browser.m.opts.NoSourceMaps {
		return f
	}
	sm := col.sourceMap(ctx, f)
	if sm == nil {
		return f
	}
	if src, line, col, ok := sm.Lookup(f.LineNumber, f.ColumnNumber); ok {
		f.URL, f.LineNumber, f.ColumnNumber = src, line, col
	}
	return f
}

// sourceMap finds, loads and parses the source map of the script frame f
// is in, once per page and script URL.
func (col Collected) sourceMap(ctx context.Context, f cdp.CallFrame) *SourceMap {
	if f.URL == "" {
		return nil
	}
	c := &col.page.maps
	c.mu.Lock()
	sm, seen := c.maps[f.URL]
	c.mu.Unlock()
	if seen {
		return sm
	}
	sm = col.loadSourceMap(ctx, f)
	c.mu.Lock()
	if c.maps == nil || len(c.maps) > 50 {
		c.maps = map[string]*SourceMap{}
	}
	c.maps[f.URL] = sm
	c.mu.Unlock()
	return sm
}

// loadSourceMap reads the sourceMappingURL comment of f's script and the
// map it names, all through CDP: nothing runs in the page, so the agent
// never sees these loads among the page's requests. Any failure means no
// map.
func (col Collected) loadSourceMap(ctx context.Context, f cdp.CallFrame) *SourceMap {
	s, err := col.page.Session(ctx)
	if err != nil {
		return nil
	}
	script, err := col.scriptSource(ctx, s, f)
	if err != nil {
		return nil
	}
	m := sourceMappingURL.FindAllStringSubmatch(script, -1)
	if m == nil {
		return nil
	}
	ref := m[len(m)-1][1]
	base, err := url.Parse(f.URL)
	if err != nil {
		return nil
	}
	refURL, err := base.Parse(ref)
	if err != nil {
		return nil
	}
	var data []byte
	if refURL.Scheme == "data" {
		_, payload, ok := strings.Cut(refURL.Opaque, ",")
		if !ok {
			return nil
		}
		if data, err = base64.StdEncoding.DecodeString(payload); err != nil {
			return nil
		}
	} else if data, err = col.loadResource(ctx, s, refURL.String()); err != nil {
		return nil
	}
	sm, err := ParseSourceMap(data, refURL.String())
	if err != nil {
		return nil
	}
	return sm
}

// scriptSource returns the text of f's script as V8 parsed it
// (Debugger.getScriptSource, with the debugger on only for that and
// pauses skipped meanwhile), or, when the script is gone (the page
// navigated), as the browser loads its URL.
func (col Collected) scriptSource(ctx context.Context, s *cdp.Session, f cdp.CallFrame) (string, error) {
	if f.ScriptID != "" {
		if err := cdp.DebuggerEnable.Do(ctx, s); err == nil {
			_ = cdp.DebuggerSetSkipAllPauses.Do(ctx, s, cdp.SkipAllPausesParams{Skip: true})
			res, err := cdp.DebuggerGetScriptSource.Call(ctx, s, cdp.ScriptSourceParams{ScriptID: f.ScriptID})
			col.page.cleanUp(ctx, s, cdp.DebuggerDisable, cdp.DebuggerDisable.Method)
			if err == nil {
				return res.ScriptSource, nil
			}
		}
	}
	data, err := col.loadResource(ctx, s, f.URL)
	return string(data), err
}

// loadResource loads u for the page the way DevTools loads source maps
// (Network.loadNetworkResource: the page's cookies, none of its requests).
func (col Collected) loadResource(ctx context.Context, s *cdp.Session, u string) ([]byte, error) {
	res, err := cdp.NetworkLoadNetworkResource.Call(ctx, s, cdp.LoadNetworkResourceParams{
		FrameID: col.page.TargetID, URL: u, Options: cdp.LoadNetworkResourceOptions{IncludeCredentials: true},
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", u, err)
	}
	r := res.Resource
	if !r.Success || r.Stream == "" {
		return nil, fmt.Errorf("load %s: %s (HTTP %v)", u, r.NetErrorName, r.HTTPStatusCode)
	}
	defer col.page.cleanUp(ctx, s, cdp.IOClose.With(cdp.IOCloseParams{Handle: r.Stream}), cdp.IOClose.Method)
	var b bytes.Buffer
	if err := readStream(ctx, s, r.Stream, &b, u); err != nil {
		return nil, fmt.Errorf("load %s: %w", u, err)
	}
	return b.Bytes(), nil
}
