package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/devtools-mcp/devtools-mcp/internal/browser"
)

// Lands is where a guarded tool acts on its page (see Tool.Lands).
type Lands int

const (
	// LandsAnywhere: any frame of the page. Keys go to whichever frame has
	// the focus, which the page can move at any time, and a script or a
	// dialog's answer can reach every frame of the origins it runs in.
	LandsAnywhere Lands = iota
	// LandsOnElements: the frames of the elements named by the uid
	// arguments (uid, *_uid, and the uids of elements[]).
	LandsOnElements
	// LandsAtPoint: the frame Chrome's hit test finds at the x, y
	// arguments, and the frames inside it when it is a cross-process
	// iframe, which the hit test does not enter.
	LandsAtPoint
)

// frameCheckFor bounds the reading of a page's frames for the guard.
const frameCheckFor = 5 * time.Second

// guardFrames is guard for the page's iframes: a page that is not
// sensitive itself may show a sensitive one in an iframe (same-process or
// cross-site), and an action landing there acts on that page. It asks the
// user when a frame the tool lands in matches a sensitive pattern or, for
// a tool running the caller's code, shares its origin with one. The frames'
// URLs are read from Chrome at the time of the call, so an iframe that
// navigated since the snapshot is judged by where it is now.
func (s *Server) guardFrames(ctx context.Context, t *Tool, p *browser.Page, args map[string]json.RawMessage) error {
	if d := p.Dialog(); d != nil {
		// The page answers nothing until the dialog is (handle_dialog):
		// the frames cannot be listed. The answer returns to the script
		// of the frame that opened the dialog, which reaches its origin.
		if pattern, ok := s.sensitive.Match(d.URL); ok {
			return s.confirm(ctx, fmt.Sprintf("%s on %s, whose dialog comes from %s, which matches the sensitive page pattern %q", t.Name, p.Info().URL, d.URL, pattern))
		}
		if pattern, ok := s.sensitive.MatchOrigin(d.URL); ok {
			return s.confirm(ctx, fmt.Sprintf("%s on %s, whose dialog comes from %s, which shares its origin with the sensitive page pattern %q", t.Name, p.Info().URL, d.URL, pattern))
		}
		return nil
	}
	// A busy page answers nothing: tools that wait for their own
	// deadline (evaluate_script) must not wait here for ever.
	fctx, cancel := context.WithTimeout(ctx, frameCheckFor)
	frames, err := p.Frames(fctx)
	cancel()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("refused %s: the page did not answer for %v (it is busy), so its frames could not be checked against the sensitive page patterns; navigate_page or close_page still take it away", t.Name, frameCheckFor)
		}
		return fmt.Errorf("refused %s: the page's frames could not be checked against the sensitive page patterns: %w", t.Name, err)
	}
	hits := s.sensitiveFrames(t, p, frames)
	if len(hits) == 0 {
		return nil
	}
	in, err := landsIn(ctx, t, p, args)
	if err != nil {
		return err
	}
	for _, f := range frames {
		h, ok := hits[f.ID]
		if !ok || (in != nil && !in(f, frames)) {
			continue
		}
		if err := s.confirm(ctx, fmt.Sprintf("%s on %s, in its iframe showing %s, which %s the sensitive page pattern %q", t.Name, p.Info().URL, h.url, h.why, h.pattern)); err != nil {
			return err
		}
		if in == nil {
			return nil // the yes covers the whole page
		}
		delete(hits, f.ID) // the yes covers this frame
	}
	if in != nil {
		p.Input().CheckPresses(func(ctx context.Context, x, y float64) error {
			return s.checkPress(ctx, t, p, x, y, frames, hits)
		})
	}
	return nil
}

// checkPress refuses a mouse press or release at x, y that would land in
// a sensitive frame the user did not let the call act in: the page may
// have moved one under the pointer when the mouse moved there. frames and
// hits are what guardFrames found; a frame that is not among them (made
// since) has the page's frames read again.
func (s *Server) checkPress(ctx context.Context, t *Tool, p *browser.Page, x, y float64, frames []browser.Frame, hits map[string]sensitiveFrame) error {
	id, deep, ok, err := p.Input().FrameAt(ctx, x, y)
	if err != nil {
		return fmt.Errorf("refused %s: what the press at (%g, %g) would reach could not be checked: %w", t.Name, x, y, err)
	}
	if !ok {
		return nil
	}
	if !slices.ContainsFunc(frames, func(f browser.Frame) bool { return f.ID == id }) {
		if frames, err = p.Frames(ctx); err != nil {
			return fmt.Errorf("refused %s: the page's frames could not be checked against the sensitive page patterns: %w", t.Name, err)
		}
		hits = s.sensitiveFrames(t, p, frames)
	}
	for _, f := range frames {
		if h, sensitive := hits[f.ID]; sensitive && (f.ID == id || deep && insideFrame(f, id, frames)) {
			return fmt.Errorf("refused %s: the page put its iframe showing %s, which %s the sensitive page pattern %q, under the pointer as the mouse moved there, so nothing was pressed; take a new snapshot", t.Name, h.url, h.why, h.pattern)
		}
	}
	return nil
}

// sensitiveFrame is a frame of the page the guard asks about: its URL
// and the pattern it matches (why: "matches", or "shares its origin with"
// for a tool running the caller's code).
type sensitiveFrame struct{ url, pattern, why string }

// sensitiveFrames returns the iframes of frames that t needs a yes for, by
// frame id.
func (s *Server) sensitiveFrames(t *Tool, p *browser.Page, frames []browser.Frame) map[string]sensitiveFrame {
	hits := map[string]sensitiveFrame{}
	for _, f := range frames {
		if f.ID == p.TargetID {
			continue // the page itself, checked by guard
		}
		if pattern, ok := s.sensitive.Match(f.URL); ok {
			hits[f.ID] = sensitiveFrame{f.URL, pattern, "matches"}
		} else if pattern, ok := s.sensitive.MatchOrigin(f.URL); ok && t.RunsCallerCode {
			hits[f.ID] = sensitiveFrame{f.URL, pattern, "shares its origin with"}
		}
	}
	return hits
}

// landsIn returns whether the tool call with args lands in frame f of
// frames; nil when it may land in any frame.
func landsIn(ctx context.Context, t *Tool, p *browser.Page, args map[string]json.RawMessage) (func(f browser.Frame, frames []browser.Frame) bool, error) {
	switch t.Lands {
	case LandsOnElements:
		ids := map[string]bool{}
		for _, uid := range uidArgs(args) {
			id, err := p.Snapshots().FrameOf(uid)
			if err != nil {
				return nil, err
			}
			if id == "" {
				return nil, nil // not recorded: any frame
			}
			ids[id] = true
		}
		return func(f browser.Frame, _ []browser.Frame) bool { return ids[f.ID] }, nil
	case LandsAtPoint:
		var x, y float64
		if json.Unmarshal(args["x"], &x) != nil || json.Unmarshal(args["y"], &y) != nil {
			return nil, nil // the tool refuses its arguments itself
		}
		id, deep, ok, err := p.Input().FrameAt(ctx, x, y)
		if err != nil {
			return nil, fmt.Errorf("refused %s: where the click lands could not be checked against the sensitive page patterns: %w", t.Name, err)
		}
		return func(f browser.Frame, frames []browser.Frame) bool {
			return ok && (f.ID == id || deep && insideFrame(f, id, frames))
		}, nil
	}
	return nil, nil
}

// insideFrame reports whether frame f is inside frame id (at any depth).
func insideFrame(f browser.Frame, id string, frames []browser.Frame) bool {
	parents := make(map[string]string, len(frames))
	for _, g := range frames {
		parents[g.ID] = g.Parent
	}
	for p, n := f.Parent, 0; p != "" && n < 64; p, n = parents[p], n+1 {
		if p == id {
			return true
		}
	}
	return false
}

// uidArgs returns the element uids among a tool's arguments: uid, those
// ending in _uid, and the uid of each of elements[].
func uidArgs(args map[string]json.RawMessage) []string {
	var uids []string
	for name, raw := range args {
		switch {
		case name == "uid" || strings.HasSuffix(name, "_uid"):
			var uid string
			if json.Unmarshal(raw, &uid) == nil {
				uids = append(uids, uid)
			}
		case name == "elements":
			var elems []struct {
				UID string `json:"uid"`
			}
			if json.Unmarshal(raw, &elems) == nil {
				for _, e := range elems {
					uids = append(uids, e.UID)
				}
			}
		}
	}
	return uids
}
