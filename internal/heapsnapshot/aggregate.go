package heapsnapshot

import (
	"cmp"
	"fmt"
	"slices"
)

// Class is the aggregate of the objects of one class.
type Class struct {
	// ID numbers the class within its snapshot as DevTools does: 1 for the
	// class of the first object (in the snapshot's order) with a non-zero
	// self size, and so on; it does not change with filters.
	ID   int
	Name string
	// Count and SelfSize are over the objects with a non-zero self size.
	Count    int
	SelfSize uint64
	// RetainedSize is the memory freed if all objects of the class were:
	// the retained sizes of the objects not dominated by another object of
	// the class.
	RetainedSize uint64
	// Distance is the smallest distance from the GC roots of an object of
	// the class.
	Distance int32
	index    uint32 // into Snapshot.classes
}

// Classes aggregates the objects that pass filter by class, sorted by
// retained size, largest first. An empty filter means all objects.
func (s *Snapshot) Classes(filter Filter) ([]Class, error) {
	all := s.allClasses()
	if filter.Name == "" {
		return slices.Clone(all), nil
	}
	keep, err := s.filterSet(filter)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(s.classes))
	for _, c := range all {
		ids[c.index] = c.ID
	}
	classes := s.aggregate(keep)
	for i := range classes {
		classes[i].ID = ids[classes[i].index]
	}
	return classes, nil
}

// allClasses returns the unfiltered aggregates, numbering them on first use.
func (s *Snapshot) allClasses() []Class {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agg == nil {
		s.agg = s.aggregate(nil)
		s.numberClasses()
	}
	return s.agg
}

// numberClasses sets the ids of s.agg in the order of each class's first
// object, and s.aggByID to find them.
func (s *Snapshot) numberClasses() {
	pos := make([]int32, len(s.classes)) // class index to position in s.agg
	for i := range pos {
		pos[i] = -1
	}
	for k, c := range s.agg {
		pos[c.index] = int32(k)
	}
	s.aggByID = make([]int32, 0, len(s.agg))
	for i := range uint32(len(s.nodeType)) {
		if s.selfSize[i] == 0 {
			continue
		}
		if k := pos[s.class[i]]; k >= 0 {
			s.aggByID = append(s.aggByID, k)
			s.agg[k].ID = len(s.aggByID)
			pos[s.class[i]] = -1
		}
	}
}

// ClassByID returns the class with the given id (see Class.ID).
func (s *Snapshot) ClassByID(id int) (Class, error) {
	all := s.allClasses()
	if id < 1 || id > len(all) {
		return Class{}, fmt.Errorf("no class with id %d: this snapshot has classes 1 to %d (see the class list)", id, len(all))
	}
	return all[s.aggByID[id-1]], nil
}

// ClassNodes returns the objects of class c that pass filter, largest
// retained size first.
func (s *Snapshot) ClassNodes(c Class, filter Filter) ([]Index, error) {
	var keep bitset
	if filter.Name != "" {
		var err error
		if keep, err = s.filterSet(filter); err != nil {
			return nil, err
		}
	}
	var nodes []Index
	for i := range uint32(len(s.nodeType)) {
		if s.class[i] == c.index && s.selfSize[i] > 0 && (keep == nil || keep.has(i)) {
			nodes = append(nodes, Index(i))
		}
	}
	s.SortIndexes(nodes, ByRetainedSize)
	return nodes, nil
}

// aggregate sums the nodes in keep (all when nil) by class.
func (s *Snapshot) aggregate(keep bitset) []Class {
	agg := make([]Class, len(s.classes))
	for i := range agg {
		agg[i] = Class{Name: s.classes[i].name, Distance: noDistance, index: uint32(i)}
	}
	for i := range uint32(len(s.nodeType)) {
		if s.selfSize[i] == 0 || keep != nil && !keep.has(i) {
			continue
		}
		c := &agg[s.class[i]]
		if c.Count == 0 || s.distance[i] < c.Distance {
			c.Distance = s.distance[i]
		}
		c.Count++
		c.SelfSize += uint64(s.selfSize[i])
	}
	s.classRetainedSizes(agg, keep)
	out := agg[:0]
	for _, c := range agg {
		if c.Count > 0 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b Class) int {
		return cmp.Or(cmp.Compare(b.RetainedSize, a.RetainedSize), cmp.Compare(a.Name, b.Name), cmp.Compare(a.index, b.index))
	})
	return slices.Clip(out)
}

// classRetainedSizes walks the dominator tree depth first, adding each
// node's retained size to its class unless a dominator of the same class
// already counted it.
func (s *Snapshot) classRetainedSizes(agg []Class, keep bitset) {
	open := make([]bool, len(s.classes)) // a dominator on the current path counted this class
	type frame struct {
		node, next uint32
		marked     bool
	}
	stack := []frame{{node: s.root, next: s.firstDominated[s.root]}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < s.firstDominated[f.node+1] {
			child := s.dominated[f.next]
			f.next++
			c := s.class[child]
			marked := false
			if !open[c] && s.selfSize[child] > 0 && (keep == nil || keep.has(child)) {
				agg[c].RetainedSize += s.retained[child]
				if s.firstDominated[child] < s.firstDominated[child+1] {
					open[c], marked = true, true
				}
			}
			stack = append(stack, frame{node: child, next: s.firstDominated[child], marked: marked})
			continue
		}
		if f.marked {
			open[s.class[f.node]] = false
		}
		stack = stack[:len(stack)-1]
	}
}
