package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/devtools-mcp/devtools-mcp/cdp"
	"github.com/devtools-mcp/devtools-mcp/snapshot"
)

// Snapshot reads the page's accessibility tree, with the documents of its
// iframes (same-process and cross-process) grafted under their <iframe>
// elements, and numbers its nodes with uids that stay stable while the
// nodes live.
func (sn Snapshots) Snapshot(ctx context.Context, verbose bool) (*snapshot.Snapshot, error) {
	threshold := scriptedFrom
	if verbose {
		threshold = -1
	}
	return sn.snapshot(ctx, verbose, threshold)
}

// SnapshotReadBy is a non-verbose Snapshot with every document read the
// same way whatever its size: by pagewalk.js when script is set, from
// Chromium's accessibility tree otherwise. It is for tools that check one
// way against the other (e2e/cmd/snapcompare).
func (sn Snapshots) SnapshotReadBy(ctx context.Context, script bool) (*snapshot.Snapshot, error) {
	threshold := -1
	if script {
		threshold = 0
	}
	return sn.snapshot(ctx, false, threshold)
}

// snapshot is Snapshot with documents of at least threshold elements read
// by pagewalk.js (none when threshold is negative).
//
// The main frame's document is got ready (its first rendering, and which
// way to read it: snapshot-ready.js) while its frame tree is read, as
// neither needs the other: on a small page these are two of the three
// round trips to the renderer a snapshot takes, the accessibility tree
// being the third. The first snapshot after navigate_page finds the
// document ready (Page.prepare) and, when Chromium's tree is to be read,
// asks for it beside the frame tree: one round trip.
func (sn Snapshots) snapshot(ctx context.Context, verbose bool, threshold int) (*snapshot.Snapshot, error) {
	s, err := sn.page.Session(ctx)
	if err != nil {
		return nil, err
	}
	var (
		tree    cdp.FrameTree
		treeErr error
		read    = make(chan struct{})
		// Sent first: the renderer answers it at once, and would answer
		// it only after the accessibility tree if that went before.
		sentTree = cdp.PageGetFrameTree.Send(ctx, s)
	)
	go func() {
		defer close(read)
		tree, treeErr = sn.frameTreeOf(ctx, s, sentTree)
	}()
	mainFrame := sn.page.sessions().sessionFrame(s)
	var (
		scripted bool
		early    <-chan axResult // the main frame's tree, asked for early
	)
	if r, ok := sn.page.takePrepared(ctx, s, mainFrame); ok && preparedChoice(r, threshold) {
		if scripted = r.scripted(threshold); !scripted {
			early = sn.axTree(ctx, s, mainFrame)
		}
	} else if early = sn.readyBeside(ctx, s, mainFrame, threshold); early == nil {
		scripted = sn.ready(ctx, s, mainFrame, threshold, true)
	}
	<-read
	if treeErr != nil {
		return nil, fmt.Errorf("snapshot: %w", treeErr)
	}
	var root *snapshot.Frame
	switch {
	case tree.Frame.ID != mainFrame:
		// Not the frame got ready (never seen): decide again for the one read.
		scripted = sn.ready(ctx, s, tree.Frame.ID, threshold, false)
		root, err = sn.collect(ctx, s, tree, threshold, scripted)
	case early != nil:
		ax := <-early
		if ax.err != nil {
			return nil, fmt.Errorf("snapshot of frame %s: %w", tree.Frame.URL, ax.err)
		}
		root = &snapshot.Frame{Scope: s.ID, Nodes: ax.nodes, ID: tree.Frame.ID}
		sn.collectChildren(ctx, s, root, tree, threshold)
	default:
		root, err = sn.collect(ctx, s, tree, threshold, scripted)
	}
	if err != nil {
		return nil, err
	}
	// A navigation received so far resets the uids now, not after they
	// were handed out for this snapshot.
	sn.page.sessions().synced()
	snap := sn.page.tracker.Take(root, verbose)
	sn.page.lastSnap.Store(snap)
	return snap, nil
}

// Last returns the latest snapshot taken of the page's document, by any
// tool, or nil when none was since it loaded: what the agent last read of
// it, which an action's changes are told against.
func (sn Snapshots) Last() *snapshot.Snapshot { return sn.page.lastSnap.Load() }

// preparedChoice reports whether the reader of a document is chosen from
// r, its size at its load: when it is clearly small or big. A document
// near the threshold may have grown since, and is counted again.
func preparedChoice(r readiness, threshold int) bool {
	return threshold < 0 || r.scripted(threshold) || r.Elements < threshold/2
}

// axResult is an answer of Accessibility.getFullAXTree.
type axResult struct {
	nodes []cdp.AXNode
	err   error
}

// axTree asks for Chromium's accessibility tree of frame frameID of
// session s, and returns where its answer will be.
func (sn Snapshots) axTree(ctx context.Context, s *cdp.Session, frameID string) <-chan axResult {
	c := make(chan axResult, 1)
	go func() {
		ax, err := cdp.AccessibilityGetFullAXTree.Call(ctx, s, cdp.GetFullAXTreeParams{FrameID: frameID})
		c <- axResult{ax.Nodes, err}
	}()
	return c
}

// readyBeside gets the main-frame document of frame frameID of session s
// ready as ready does, when an earlier snapshot saw it rendered and
// clearly small (seenSmall), and asks for Chromium's tree beside it: the
// script has nothing to wait for then, and counts the elements only to
// see whether the document grew into one pagewalk.js reads. It returns
// where the tree will be, or nil when the document is not known small,
// grew, or the script failed: the caller then gets it ready itself, and
// the tree asked for is dropped.
func (sn Snapshots) readyBeside(ctx context.Context, s *cdp.Session, frameID string, threshold int) <-chan axResult {
	world := sn.page.seenSmall(s, frameID, threshold)
	if world == 0 {
		return nil
	}
	readyP := cdp.RuntimeCallFunctionOn.Send(ctx, s, readyParams(world, true, false))
	treeP := cdp.AccessibilityGetFullAXTree.Send(ctx, s, cdp.GetFullAXTreeParams{FrameID: frameID})
	r, err := readinessOf(readyP.Wait(ctx))
	tree := make(chan axResult, 1)
	go func() {
		ax, err := treeP.Wait(ctx)
		tree <- axResult{ax.Nodes, err}
	}()
	if err != nil || r.scripted(threshold) {
		return nil
	}
	sn.page.sawDocument(s, frameID, world, r)
	return tree
}

// ready runs snapshot-ready.js in frame frameID of session s and returns
// whether pagewalk.js is to read its document (never when threshold is
// negative). With render it first waits, 3 s at most, until the document
// has been rendered once, which a snapshot taken just after a load on a
// busy machine may precede; that is for the main frame: its iframes in
// the same process render with it, and cross-process ones are not waited
// for, since Chrome may never draw a frame that is off-screen. A failure
// costs only the wait, and the document is then read from Chromium's
// tree, so it is logged.
func (sn Snapshots) ready(ctx context.Context, s *cdp.Session, frameID string, threshold int, render bool) bool {
	if threshold < 0 && !render {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	r, err := sn.page.callReady(ctx, s, frameID, render, false)
	if err != nil {
		sn.page.browser.m.log.Debug("snapshot: get the document ready", "page", sn.page.ID, "frame", frameID, "err", err)
		return false
	}
	if render {
		sn.page.sawDocument(s, frameID, sn.page.worlds.get(s, frameID), r)
	}
	return r.scripted(threshold)
}

// collect reads the accessibility tree of frame ft through session s, and
// recursively its child frames'; scripted tells whether ft's document is
// read by pagewalk.js (see ready). Documents with at least threshold
// elements are read by pagewalk.js (never when it is negative).
func (sn Snapshots) collect(ctx context.Context, s *cdp.Session, ft cdp.FrameTree, threshold int, scripted bool) (*snapshot.Frame, error) {
	f, err := sn.readFrame(ctx, s, ft.Frame, threshold, scripted)
	if err != nil {
		return nil, err
	}
	sn.collectChildren(ctx, s, f, ft, threshold)
	return f, nil
}

// collectChildren reads the child frames of ft, whose document f is, into
// f.Children. A child frame that goes away meanwhile is left out rather
// than failing the snapshot.
func (sn Snapshots) collectChildren(ctx context.Context, s *cdp.Session, f *snapshot.Frame, ft cdp.FrameTree, threshold int) {
	ec := 0 // f's isolated world, once needed
	for _, child := range ft.ChildFrames {
		owner, err := cdp.DOMGetFrameOwner.Call(ctx, s, cdp.GetFrameOwnerParams{FrameID: child.Frame.ID})
		if err != nil {
			continue
		}
		cs, ct := s, child
		if fs := sn.page.sessions().frameSession(child.Frame.ID); fs != nil {
			// A cross-process frame: its document is read through its own session.
			tree, err := sn.frameTree(ctx, fs)
			if err != nil {
				continue
			}
			cs, ct = fs, tree
		}
		cf, err := sn.collect(ctx, cs, ct, threshold, sn.ready(ctx, cs, ct.Frame.ID, threshold, false))
		if err != nil {
			continue
		}
		cf.Owner = owner.BackendNodeID
		if f.World != "" {
			// The owner is numbered by pagewalk.js, like its snapshot line.
			if ec == 0 {
				if ec, err = world(ctx, s, f.World); err != nil {
					continue
				}
			}
			if cf.Owner, err = scriptRef(ctx, s, ec, owner.BackendNodeID); err != nil {
				continue
			}
		}
		f.Children = append(f.Children, cf)
	}
}

// readFrame reads the accessibility tree of one frame's document: by
// pagewalk.js when ready said so (and the script still finds the document
// big enough), from Chromium otherwise.
func (sn Snapshots) readFrame(ctx context.Context, s *cdp.Session, fr cdp.Frame, threshold int, scripted bool) (*snapshot.Frame, error) {
	if scripted {
		nodes, err := sn.readByScript(ctx, s, fr.ID, threshold)
		if err == nil && nodes != nil {
			return &snapshot.Frame{Scope: s.ID, Nodes: nodes, World: fr.ID, ID: fr.ID}, nil
		}
		if err != nil {
			sn.page.browser.m.log.Info("snapshot: reading the frame in the page failed, using Chrome's accessibility tree", "page", sn.page.ID, "err", err)
		}
	}
	ax, err := cdp.AccessibilityGetFullAXTree.Call(ctx, s, cdp.GetFullAXTreeParams{FrameID: fr.ID})
	if err != nil {
		return nil, fmt.Errorf("snapshot of frame %s: %w", fr.URL, err)
	}
	return &snapshot.Frame{Scope: s.ID, Nodes: ax.Nodes, ID: fr.ID}, nil
}

// frameTree returns the frames of session s's process, with the
// cross-process iframes announced on s (missing from Page.getFrameTree)
// added under the frame whose document holds their <iframe>.
func (sn Snapshots) frameTree(ctx context.Context, s *cdp.Session) (cdp.FrameTree, error) {
	return sn.frameTreeOf(ctx, s, cdp.PageGetFrameTree.Send(ctx, s))
}

// frameTreeOf is frameTree from the Page.getFrameTree sent as sent.
func (sn Snapshots) frameTreeOf(ctx context.Context, s *cdp.Session, sent *cdp.Pending[cdp.GetFrameTreeResult]) (cdp.FrameTree, error) {
	res, err := sent.Wait(ctx)
	if err != nil {
		return cdp.FrameTree{}, err
	}
	tree := res.FrameTree
	for _, id := range sn.childFrames(s) {
		if findFrame(&tree, id) != nil {
			continue
		}
		parent := &tree
		if len(tree.ChildFrames) > 0 { // else the <iframe> can only be in the main frame
			if f := findFrame(&tree, ownerFrame(ctx, s, id)); f != nil {
				parent = f
			}
		}
		parent.ChildFrames = append(parent.ChildFrames, cdp.FrameTree{Frame: cdp.Frame{ID: id}})
	}
	return tree, nil
}

// findFrame returns the node of frame id in tree, or nil.
func findFrame(tree *cdp.FrameTree, id string) *cdp.FrameTree {
	if tree.Frame.ID == id {
		return tree
	}
	for i := range tree.ChildFrames {
		if f := findFrame(&tree.ChildFrames[i], id); f != nil {
			return f
		}
	}
	return nil
}

// ownerFrame returns the id of the frame (of session s's process) whose
// document holds the <iframe> of frame id, or "" when it is not known.
func ownerFrame(ctx context.Context, s *cdp.Session, id string) string {
	owner, err := cdp.DOMGetFrameOwner.Call(ctx, s, cdp.GetFrameOwnerParams{FrameID: id})
	if err != nil {
		return ""
	}
	el, err := cdp.DOMResolveNode.Call(ctx, s, cdp.NodeRef{BackendNodeID: owner.BackendNodeID})
	if err != nil {
		return ""
	}
	// The <iframe> element of the document the owner is in, if that is
	// not the main frame's.
	host, err := cdp.RuntimeCallFunctionOn.Call(ctx, s, cdp.CallFunctionOnParams{
		FunctionDeclaration: frameElementJS,
		ObjectID:            el.Object.ObjectID,
	})
	if err != nil || host.Result.ObjectID == "" {
		return ""
	}
	d, err := cdp.DOMDescribeNode.Call(ctx, s, cdp.NodeRef{ObjectID: host.Result.ObjectID})
	if err != nil {
		return ""
	}
	return d.Node.FrameID
}

// childFrames lists the cross-process iframes announced on session s
// until now, the attachments before the caller's last reply included.
func (sn Snapshots) childFrames(s *cdp.Session) []string {
	sn.page.sessions().synced()
	return sn.page.events.childFrames(s)
}

// Element resolves a uid from any snapshot of the page to its DOM node.
func (sn Snapshots) Element(ctx context.Context, uid string) (*Element, error) {
	sn.page.sessions().synced() // a uid of a document navigated away from is stale
	key, err := sn.page.tracker.Lookup(uid)
	if err != nil {
		return nil, err
	}
	if key.BackendNodeID < 0 {
		return nil, fmt.Errorf("uid=%s is an accessibility node without a DOM element of its own; act on its parent's uid instead", uid)
	}
	if _, err := sn.page.Session(ctx); err != nil {
		return nil, err
	}
	s := sn.page.sessions().sessionByID(key.Scope)
	if s == nil {
		return nil, fmt.Errorf("element uid=%s no longer exists (its frame is gone); take a new snapshot", uid)
	}
	id := key.BackendNodeID
	if key.World != "" {
		if id, err = backendOf(ctx, s, key, uid); err != nil {
			return nil, err
		}
	}
	el, err := resolve(ctx, s, id, uid)
	if err == nil {
		el.frame = key.Frame
	}
	return el, err
}

// newDocument forgets the uids of the previous document. Called with p.mu held.
func (sn Snapshots) newDocument() {
	sn.page.tracker.Reset()
	sn.page.lastSnap.Store(nil)
}
