package snapshot

import (
	"fmt"
	"sync"
)

// Tracker assigns uids for one page across snapshots and resolves them back.
// Safe for concurrent use.
//
// A uid is "<snapshot number>_<n>": the number of the snapshot that first
// showed the node and a counter within that snapshot. Once a node (a Key)
// has a uid it keeps it in every later snapshot until Reset, and a uid,
// once issued, resolves until Reset even when its node is no longer on the
// page (the browser side then fails to find the DOM node and should say so).
// Memory is one entry per distinct node seen since Reset, however many
// snapshots are taken.
type Tracker struct {
	mu    sync.Mutex
	snap  int            // number of the current (latest) snapshot; 0 before the first
	next  int            // next n for new uids in the current snapshot
	byKey map[Key]string // identity key -> uid
	byUID map[string]Key // uid -> DOM key, what Lookup returns
}

// NewTracker returns a Tracker with no uids; its first snapshot is number 1.
func NewTracker() *Tracker {
	return &Tracker{byKey: map[Key]string{}, byUID: map[string]Key{}}
}

// Take builds a snapshot of root (iframe documents grafted under their owner
// element's node), numbering it with the next snapshot number. A node that
// had a uid in an earlier snapshot keeps it (matched by Key); new nodes get
// "<snapshotNo>_<n>" (n counts from 0 within the snapshot). verbose keeps
// every node (including ignored/generic ones) instead of only interesting
// ones. A nil root, or a root frame without nodes, gives an empty snapshot
// (Root nil); it still uses up a number.
func (t *Tracker) Take(root *Frame, verbose bool) *Snapshot {
	top, count := build(root, verbose) // no lock needed: pure function of root

	t.mu.Lock()
	defer t.mu.Unlock()
	t.snap++
	t.next = 0
	s := &Snapshot{Root: top, Number: t.snap, Verbose: verbose, count: count}
	if top == nil {
		return s
	}
	if len(t.byKey) == 0 && count > 64 {
		// A new document's first snapshot: every node gets a uid, into
		// maps made at their size rather than grown step by step.
		t.byKey, t.byUID = make(map[Key]string, count), make(map[string]Key, count)
	}
	// Number in the order the nodes are printed.
	stack := []*Node{top}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.UID = t.uidLocked(n.identity(), n.Key)
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
	return s
}

// uidLocked returns the uid of the node tracked by ident, issuing one in the
// current snapshot if it has none; dom is what Lookup will return for it.
func (t *Tracker) uidLocked(ident, dom Key) string {
	// A node's frame is not part of its identity: keys made for elements
	// that scripts return do not know it. Lookup gets it once a snapshot
	// has seen the node.
	ident.Frame = ""
	if uid, ok := t.byKey[ident]; ok {
		k := t.byUID[uid]
		switch {
		case !sameNode(k, dom):
			// A synthetic identity (a node without a DOM node of its own,
			// or a second node for one DOM node) now stands for another
			// DOM key: the uid names what the latest snapshot shows.
			t.byUID[uid] = dom
		case k.Frame == "" && dom.Frame != "":
			k.Frame = dom.Frame
			t.byUID[uid] = k
		}
		return uid
	}
	if t.snap == 0 {
		t.snap = 1 // UIDFor before the first Take opens snapshot 1
	}
	uid := uidString(t.snap, t.next)
	t.next++
	t.byKey[ident] = uid
	t.byUID[uid] = dom
	return uid
}

// sameNode tells whether a and b are one DOM node, frame aside.
func sameNode(a, b Key) bool {
	a.Frame, b.Frame = "", ""
	return a == b
}

// Lookup returns the node a uid names, from any snapshot since the last
// Reset. A node with a negative Key.BackendNodeID has no DOM node of its own.
func (t *Tracker) Lookup(uid string) (Key, error) {
	if !validUID(uid) {
		return Key{}, fmt.Errorf("uid %q is not a snapshot uid like 1_5; take a snapshot and use a uid from it", uid)
	}
	t.mu.Lock()
	k, ok := t.byUID[uid]
	t.mu.Unlock()
	if !ok {
		return Key{}, fmt.Errorf("no element with uid %q; take a new snapshot", uid)
	}
	return k, nil
}

// UIDFor returns the uid of the node with key, giving it a new uid (numbered
// in the current snapshot) when it has none; used to report DOM elements
// returned by scripts as uids the agent can act on. Before the first Take,
// new uids are numbered in snapshot 1 and the first Take is then number 2.
func (t *Tracker) UIDFor(k Key) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.uidLocked(k, k)
}

// Reset forgets all uids (the main document was replaced; its backend ids
// are gone). The snapshot counter keeps counting so uids are never reused.
func (t *Tracker) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byKey = map[Key]string{}
	t.byUID = map[string]Key{}
}

// Len returns how many uids the tracker holds (one per node seen since the
// last Reset).
func (t *Tracker) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byUID)
}

// validUID tells whether uid looks like "<digits>_<digits>".
func validUID(uid string) bool {
	i := 0
	for i < len(uid) && uid[i] >= '0' && uid[i] <= '9' {
		i++
	}
	if i == 0 || i == len(uid) || uid[i] != '_' || i > 18 {
		return false
	}
	rest := uid[i+1:]
	if rest == "" || len(rest) > 18 {
		return false
	}
	for j := 0; j < len(rest); j++ {
		if rest[j] < '0' || rest[j] > '9' {
			return false
		}
	}
	return true
}
