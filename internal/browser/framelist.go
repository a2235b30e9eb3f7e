package browser

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/devtools-mcp/devtools-mcp/cdp"
)

// Frame is one frame of a page as Chrome reports it at the time of the
// call: the page's own, a same-process iframe or a cross-process one, at
// any depth.
type Frame struct {
	ID, Parent string // Parent is "" for the page's own frame
	// URL is the address of the frame's document, or, for a document
	// without an address of its own (about:blank, about:srcdoc, blob:),
	// the URL of the nearest frame above that has one: such a document
	// has the origin of the document that made it, which is, as far as
	// Chrome tells, its parent's.
	URL string
}

// Frames lists every frame of the page with the URL its document has now.
// Chrome's frame trees are read at the time of the call, so a frame that
// navigated since the last snapshot shows its new URL.
func (p *Page) Frames(ctx context.Context) ([]Frame, error) {
	s, err := p.Session(ctx)
	if err != nil {
		return nil, err
	}
	res, err := cdp.PageGetFrameTree.Call(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("list the page's frames: %w", err)
	}
	var all []Frame
	flattenFrames(res.FrameTree, &all)
	p.sessions().synced()
	for _, fs := range p.events.frameSessions() {
		tree, err := cdp.PageGetFrameTree.Call(ctx, fs)
		if err != nil {
			continue // the frame went away meanwhile
		}
		flattenFrames(tree.FrameTree, &all)
	}
	byID := make(map[string]*Frame, len(all))
	for i := range all {
		byID[all[i].ID] = &all[i]
	}
	for i := range all {
		all[i].URL = ownURL(&all[i], byID)
	}
	return all, nil
}

// flattenFrames appends the frames of tree to all, parents first.
func flattenFrames(tree cdp.FrameTree, all *[]Frame) {
	*all = append(*all, Frame{ID: tree.Frame.ID, Parent: tree.Frame.ParentID, URL: tree.Frame.URL})
	for _, c := range tree.ChildFrames {
		flattenFrames(c, all)
	}
}

// ownURL returns f's URL, or for a document without an address of its own
// that of its nearest ancestor with one (see Frame.URL).
func ownURL(f *Frame, byID map[string]*Frame) string {
	for range 64 { // frames nest a few deep; a cycle must not spin
		if !inheritsOrigin(f.URL) {
			return f.URL
		}
		parent := byID[f.Parent]
		if parent == nil {
			return f.URL
		}
		f = parent
	}
	return f.URL
}

// inheritsOrigin reports whether a document at url takes its origin from
// the document that made it.
func inheritsOrigin(url string) bool {
	u := strings.ToLower(url)
	return u == "" || strings.HasPrefix(u, "about:") || strings.HasPrefix(u, "blob:") || strings.HasPrefix(u, "filesystem:")
}

// FrameOf returns the id of the frame holding the element of uid, as it
// was when the snapshot was taken (a node never changes frames), or "" when
// the snapshot did not record it.
func (sn Snapshots) FrameOf(uid string) (string, error) {
	key, err := sn.page.tracker.Lookup(uid)
	if err != nil {
		return "", err
	}
	return key.Frame, nil
}

// FrameAt returns the frame a click at x, y of the page's viewport reaches,
// as Chrome's own hit test finds it now. Chrome's hit test stops at a
// cross-process iframe: then deep is true, and the click may reach that
// frame or any frame inside it. ok is false when the point reaches no node.
func (in Input) FrameAt(ctx context.Context, x, y float64) (id string, deep, ok bool, err error) {
	s, err := in.page.Session(ctx)
	if err != nil {
		return "", false, false, err
	}
	if math.IsNaN(x) || math.IsNaN(y) || math.Abs(x) > 1e7 || math.Abs(y) > 1e7 {
		return "", false, false, nil
	}
	hit, err := cdp.DOMGetNodeForLocation.Call(ctx, s, cdp.GetNodeForLocationParams{X: int(math.Round(x)), Y: int(math.Round(y))})
	if err != nil {
		// Chrome answers "No node found at given location" outside the
		// page; the click then reaches nothing.
		if strings.Contains(err.Error(), "No node found") {
			return "", false, false, nil
		}
		return "", false, false, fmt.Errorf("what is at (%g, %g): %w", x, y, err)
	}
	d, err := cdp.DOMDescribeNode.Call(ctx, s, cdp.NodeRef{BackendNodeID: hit.BackendNodeID})
	if err == nil && d.Node.FrameID != "" {
		return d.Node.FrameID, true, true, nil // an <iframe>: its document is in another process
	}
	return hit.FrameID, false, true, nil
}
