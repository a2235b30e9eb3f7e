package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/internal/audit"
)

// maxAuditFrames caps the frame documents an audit reads, so that a page
// of many frames stays quick to audit.
const maxAuditFrames = 30

// auditSession reads the documents one session renders (its frame's and
// those of the in-process frames below it), with their accessibility
// trees, into in: the first document's root hangs under element owner
// (-1 for the page), and its nodes are in backend id scope (0 for the
// page's process, one per cross-process frame).
func auditSession(ctx context.Context, s *cdp.Session, in *audit.Input, scope, owner int) error {
	snap, err := cdp.DOMSnapshotCaptureSnapshot.Call(ctx, s, cdp.CaptureSnapshotParams{ComputedStyles: auditStyles})
	if err != nil {
		return fmt.Errorf("audit: DOM snapshot: %w", err)
	}
	if len(snap.Documents) == 0 {
		return errors.New("audit: the page has no document")
	}
	first := len(in.Nodes)
	frames := auditFrames(&snap, in, owner)
	for i := first; i < len(in.Nodes); i++ {
		in.Nodes[i].Scope = scope
	}
	if hasOpenShadow(&snap) {
		if places := shadowPlaces(ctx, s); places != nil {
			applyPlaces(in.Nodes, first, places)
		}
	}
	frameIDs := append([]string{""}, frames...)
	for k, frameID := range frameIDs {
		ax, err := cdp.AccessibilityGetFullAXTree.Call(ctx, s, cdp.GetFullAXTreeParams{FrameID: frameID})
		if err != nil {
			if k > 0 || scope > 0 {
				continue // the frame went away meanwhile
			}
			return fmt.Errorf("audit: accessibility tree: %w", err)
		}
		for _, n := range ax.Nodes {
			in.AX = append(in.AX, audit.AXNode{Backend: n.BackendDOMNodeID, Scope: scope, Role: n.Role.String(), Name: n.Name.String(), Ignored: n.Ignored})
		}
	}
	return nil
}

// auditFrames flattens a snapshot's documents (the session's frame's and
// those of its in-process frames, as axe-core audits frames' documents
// too) into in.Nodes, the first under element owner, and returns the
// frames' ids after the first's, in the order of their frame numbers.
func auditFrames(snap *cdp.CaptureSnapshotResult, in *audit.Input, owner int) []string {
	type pending struct{ doc, owner int }
	next := 0
	if owner >= 0 {
		for _, n := range in.Nodes {
			next = max(next, n.Frame+1)
		}
	}
	var ids []string
	queue := []pending{{0, owner}}
	seen := map[int]bool{0: true}
	for k := 0; len(queue) > 0 && next <= maxAuditFrames; k++ {
		p := queue[0]
		queue = queue[1:]
		if k > 0 {
			id := snap.Documents[p.doc].FrameID
			if id < 0 || id >= len(snap.Strings) {
				continue
			}
			ids = append(ids, snap.Strings[id])
		}
		var kids [][2]int
		in.Nodes, kids = domNodes(in.Nodes, snap.Documents[p.doc], snap.Strings, p.owner, next)
		if b := snap.Documents[p.doc].BaseURL; b >= 0 && b < len(snap.Strings) {
			in.SetBaseURL(next, snap.Strings[b])
		}
		next++
		for _, k := range kids {
			if k[1] > 0 && k[1] < len(snap.Documents) && !seen[k[1]] {
				seen[k[1]] = true
				queue = append(queue, pending{k[1], k[0]})
			}
		}
	}
	return ids
}

// auditCrossProcessFrames reads the documents of the page's cross-process
// frames (other sites, under site isolation) from their own sessions,
// each under its frame element, parents before children.
func (p *Page) auditCrossProcessFrames(ctx context.Context, s *cdp.Session, in *audit.Input) {
	scopes := map[string]int{s.ID: 0}
	pending := p.events.frameSessions()
	for progress := true; progress && len(pending) > 0 && len(scopes) <= maxAuditFrames; {
		progress = false
		for k := 0; k < len(pending); k++ {
			fs := pending[k]
			frameID, parent := p.events.frameOf(fs)
			if parent == nil {
				pending = append(pending[:k], pending[k+1:]...)
				k--
				continue
			}
			ps, ok := scopes[parent.ID]
			if !ok {
				continue // its parent frame is read first
			}
			pending = append(pending[:k], pending[k+1:]...)
			k--
			progress = true
			own, err := cdp.DOMGetFrameOwner.Call(ctx, parent, cdp.GetFrameOwnerParams{FrameID: frameID})
			if err != nil {
				continue
			}
			owner := -1
			for i, n := range in.Nodes {
				if n.Scope == ps && n.Backend == own.BackendNodeID {
					owner = i
				}
			}
			if owner < 0 {
				continue
			}
			scope := len(scopes)
			if auditSession(ctx, fs, in, scope, owner) == nil {
				scopes[fs.ID] = scope
			}
		}
	}
}
