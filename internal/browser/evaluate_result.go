package browser

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// A script's long string result travels from the page in pieces. Chrome
// sends a command's response as one message, which the page's thread
// builds and the one pipe to the browser carries before anything else: a
// 500 MB string kept the page busy, and every later command waiting, long
// after the call had given up on it and said the page was usable. So the
// caller's function is wrapped: a string longer than resultChunk is left
// in the page, under a name of the call's own, and the call gets a short
// marker instead; the string is then read resultChunk characters at a
// time, each read a short command. When the call's time runs out the
// reading stops, and the page is free at once. Any other result comes
// back as Chrome returns it.

// resultChunk is how many UTF-16 code units of a string one read takes.
const resultChunk = 1 << 20

// wrapResultJS calls the caller's function (the last %s) with this and the
// arguments it was given, and returns its result, or what its promise
// resolves to, unless that is a string longer than the %d: that one is
// kept as globalThis[the first %q] and the marker (the second %q) followed
// by its length is returned. A promise is recognised whatever realm it
// comes from; a rejection and a synchronous throw pass through unchanged.
// The caller's function is evaluated in a scope that declares no names of
// ours, so that the page's globals it uses (an element's id, a variable
// called f) are the page's; the helper that needs names of its own is an
// inner function it is passed to.
const wrapResultJS = `function() {
  return (function(f, args) {
    const keep = v => typeof v === 'string' && v.length > %d ? (globalThis[%q] = v, %q + v.length) : v;
    if (typeof f !== 'function') throw new TypeError('the code is not a function: pass one such as () => document.title, or format=script for a plain script');
    const r = f.apply(this, args);
    return Object.prototype.toString.call(r) === '[object Promise]' ? r.then(keep) : keep(r);
  }).call(this, (%s
  ), arguments);
}`

// keepSerializedJS runs serializeJS (the %s) on this and, when the JSON
// text it makes is longer than n, keeps the text as globalThis[k] and puts
// the marker m followed by its length in its place.
const keepSerializedJS = `function(k, m, n) {
  const p = (%s
  ).call(this);
  if (typeof p[0] === 'string' && p[0].length > n) { globalThis[k] = p[0]; p[0] = m + p[0].length; }
  return p;
}`

// serialize returns serializeJS wrapped by keepSerializedJS, and its
// arguments.
func (k keptResult) serialize() (string, []cdp.CallArgument) {
	return fmt.Sprintf(keepSerializedJS, serializeJS), []cdp.CallArgument{{Value: k.key}, {Value: k.marker}, {Value: resultChunk}}
}

// textLength returns the length of the JSON text kept for text, what
// keepSerializedJS left in its place, or -1 when text is the text itself.
func (k keptResult) textLength(text string) int {
	if !strings.HasPrefix(text, k.marker) {
		return -1
	}
	n, err := strconv.Atoi(text[len(k.marker):])
	if err != nil {
		return -1
	}
	return n
}

// sliceJS returns the piece of the string globalThis[k] from i, at most n
// long, ending before a lone high surrogate so that a character is never
// cut in two.
const sliceJS = `function(k, i, n) {
  const s = globalThis[k];
  if (typeof s !== 'string') return '';
  let e = Math.min(i + n, s.length);
  if (e < s.length && e > i + 1) { const c = s.charCodeAt(e - 1); if (c >= 0xD800 && c <= 0xDBFF) e--; }
  return s.slice(i, e);
}`

// forgetJS deletes globalThis[k].
const forgetJS = `function(k) { delete globalThis[k]; }`

// keptResult is where one call's long string result is kept in the page.
type keptResult struct {
	key    string // the global's name
	marker string // what the call returns instead, before the length
}

// newKeptResult picks names no page script can guess: 64 random bits in
// digits, which recorded CDP replays compare digits aside.
func newKeptResult() keptResult {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	nonce := strconv.FormatUint(binary.BigEndian.Uint64(b[:]), 10)
	return keptResult{key: "__devtoolsMcpResult" + nonce, marker: "\x00devtools-mcp-result:" + nonce + ":"}
}

// wrap returns fn wrapped by wrapResultJS.
func (k keptResult) wrap(fn string) string {
	return fmt.Sprintf(wrapResultJS, resultChunk, k.key, k.marker, fn)
}

// length returns the length of the string kept for v, the call's result,
// or -1 when v is the result itself.
func (k keptResult) length(v cdp.RemoteObject) int {
	var s string
	if v.Type != "string" || json.Unmarshal(v.Value, &s) != nil || !strings.HasPrefix(s, k.marker) {
		return -1
	}
	n, err := strconv.Atoi(s[len(k.marker):])
	if err != nil {
		return -1
	}
	return n
}

// read reads the kept string, n UTF-16 code units long, as JSON text (see
// readRaw).
func (k keptResult) read(ctx context.Context, s *cdp.Session, target string, n int) (string, error) {
	str, err := k.readRaw(ctx, s, target, n)
	if err != nil {
		return "", err
	}
	return jsonString(str), nil
}

// readRaw reads the kept string, n UTF-16 code units long, through the
// object target (of the page's realm) a piece at a time, stopping when
// ctx ends, and forgets it in the page either way.
func (k keptResult) readRaw(ctx context.Context, s *cdp.Session, target string, n int) (string, error) {
	defer k.forget(ctx, s, target)
	var b strings.Builder
	for i := 0; i < n; {
		res, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
			FunctionDeclaration: sliceJS, ObjectID: target,
			Arguments: []cdp.CallArgument{{Value: k.key}, {Value: i}, {Value: resultChunk}},
		})
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("the result is %d characters long, too long to read before the time ran out; the page is usable again. Return less (a slice, a count, a summary)", n)
			}
			return "", fmt.Errorf("read the result: %w", err)
		}
		var piece string
		if err := json.Unmarshal(res.Result.Value, &piece); err != nil || piece == "" {
			return "", fmt.Errorf("read the result: the page changed it while it was read")
		}
		b.WriteString(piece)
		i += utf16Len(piece)
	}
	return b.String(), nil
}

// forget deletes the kept string in the page. A page too busy to answer
// is not waited for long: a navigation drops the string anyway.
func (k keptResult) forget(ctx context.Context, s *cdp.Session, target string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: forgetJS, ObjectID: target, Arguments: []cdp.CallArgument{{Value: k.key}},
	})
}

// utf16Len is the length of s in UTF-16 code units, as JavaScript counts.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// jsonString encodes s as a JSON string, with <, > and & as they are.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
