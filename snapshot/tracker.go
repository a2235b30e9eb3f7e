package snapshot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
	mu   sync.Mutex
	snap int // number of the current (latest) snapshot; 0 before the first
	next int // next n for new uids in the current snapshot
	// uids are the uids issued since Reset, in the order issued, which
	// is that of their snapshot and n: Lookup finds a uid by bisection.
	uids  []tracked
	byKey map[trackKey]int32 // identity -> index in uids
	docs  docNumbers         // the documents of the identities
}

// tracked is a uid and the node it names.
type tracked struct {
	uid     string
	snap, n int // the numbers uid spells
	dom     Key // what Lookup returns
}

// trackKey is the identity of a node: its Key without Frame, Scope and
// World numbered by docNumbers, which hashes several times quicker than a
// Key's strings (session and frame ids of 32 characters).
type trackKey struct {
	doc int32
	id  int
}

// docNumbers numbers the Scope and World pairs of the tracked keys. The
// nodes of a snapshot come frame by frame, so the last pair is remembered
// apart: it is most often the one asked for next.
type docNumbers struct {
	byPair               map[[2]string]int32
	lastScope, lastWorld string
	last                 int32 // the number of lastScope and lastWorld; -1 for none
}

// number returns the number of scope and world, giving them one when they
// have none.
func (d *docNumbers) number(scope, world string) int32 {
	if d.last >= 0 && scope == d.lastScope && world == d.lastWorld {
		return d.last
	}
	n, ok := d.byPair[[2]string{scope, world}]
	if !ok {
		if d.byPair == nil {
			d.byPair = map[[2]string]int32{}
		}
		n = int32(len(d.byPair))
		d.byPair[[2]string{scope, world}] = n
	}
	d.lastScope, d.lastWorld, d.last = scope, world, n
	return n
}

// NewTracker returns a Tracker with no uids; its first snapshot is number 1.
func NewTracker() *Tracker {
	return &Tracker{byKey: map[trackKey]int32{}, docs: docNumbers{last: -1}}
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
		// a map and a slice made at their size rather than grown step
		// by step.
		t.byKey, t.uids = make(map[trackKey]int32, count), make([]tracked, 0, count)
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
	// A node's frame is not part of its identity (trackKey has none):
	// keys made for elements that scripts return do not know it. Lookup
	// gets it once a snapshot has seen the node.
	key := trackKey{t.docs.number(ident.Scope, ident.World), ident.BackendNodeID}
	if i, ok := t.byKey[key]; ok {
		u := &t.uids[i]
		switch {
		case !sameNode(u.dom, dom):
			// A synthetic identity (a node without a DOM node of its own,
			// or a second node for one DOM node) now stands for another
			// DOM key: the uid names what the latest snapshot shows.
			u.dom = dom
		case u.dom.Frame == "" && dom.Frame != "":
			u.dom.Frame = dom.Frame
		}
		return u.uid
	}
	if t.snap == 0 {
		t.snap = 1 // UIDFor before the first Take opens snapshot 1
	}
	uid := uidString(t.snap, t.next)
	t.byKey[key] = int32(len(t.uids))
	t.uids = append(t.uids, tracked{uid: uid, snap: t.snap, n: t.next, dom: dom})
	t.next++
	return uid
}

// findLocked returns the node uid names, when it was issued since Reset.
// uid is "<snap>_<n>", written as uidString writes it: a uid with a
// leading zero was never issued.
func (t *Tracker) findLocked(uid string) (Key, bool) {
	at := strings.IndexByte(uid, '_')
	snap, neg1, ok1 := decimalID(uid[:max(at, 0)])
	n, neg2, ok2 := decimalID(uid[at+1:])
	if at < 0 || !ok1 || !ok2 || neg1 || neg2 {
		return Key{}, false
	}
	i, found := slices.BinarySearchFunc(t.uids, [2]int{snap, n}, func(u tracked, want [2]int) int {
		return cmp.Or(cmp.Compare(u.snap, want[0]), cmp.Compare(u.n, want[1]))
	})
	if !found {
		return Key{}, false
	}
	return t.uids[i].dom, true
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
	k, ok := t.findLocked(uid)
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
	t.byKey = map[trackKey]int32{}
	t.uids = nil
	t.docs = docNumbers{last: -1}
}

// Len returns how many uids the tracker holds (one per node seen since the
// last Reset).
func (t *Tracker) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.uids)
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
