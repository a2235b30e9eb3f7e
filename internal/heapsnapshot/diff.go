package heapsnapshot

import (
	"cmp"
	"slices"
)

// ClassDiff is what changed in one class between two snapshots of a page,
// matching objects by id: new objects are in the current snapshot only,
// deleted ones in the base only.
type ClassDiff struct {
	Name                     string
	AddedCount, RemovedCount int
	CountDelta               int
	AddedSize, RemovedSize   uint64
	SizeDelta                int64
	// Added are the new objects (indexes in the current snapshot),
	// Removed the deleted ones (from the base snapshot), by id.
	Added   []Index
	Removed []Removed
	key     string
}

// Removed is an object of the base snapshot the current one lacks.
type Removed struct {
	ID       uint32
	SelfSize uint64
}

// Compare diffs base, an earlier snapshot, with current by class, the
// largest growth first; unchanged classes are left out. Plain objects of
// the base are classified with current's interface names, so that a class
// means the same on both sides. Only snapshots of one page taken while
// DevTools' heap profiler stayed on have comparable ids.
func Compare(base, current *Snapshot) []ClassDiff {
	baseClass, baseClasses := base.classify(current.interfaces)
	before := base.byClass(baseClass, baseClasses)
	after := current.byClass(current.class, current.classes)
	var diffs []ClassDiff
	for key, cur := range after.members {
		old := before.members[key]
		d := ClassDiff{Name: after.names[key], key: key}
		i, j := 0, 0
		for i < len(old) || j < len(cur) {
			switch {
			case j == len(cur) || i < len(old) && base.nodeID[old[i]] < current.nodeID[cur[j]]:
				d.Removed = append(d.Removed, Removed{base.nodeID[old[i]], uint64(base.selfSize[old[i]])})
				d.RemovedSize += uint64(base.selfSize[old[i]])
				i++
			case i == len(old) || base.nodeID[old[i]] > current.nodeID[cur[j]]:
				d.Added = append(d.Added, Index(cur[j]))
				d.AddedSize += uint64(current.selfSize[cur[j]])
				j++
			default:
				i++
				j++
			}
		}
		diffs = d.finish(diffs)
	}
	for key, old := range before.members {
		if _, ok := after.members[key]; ok {
			continue
		}
		d := ClassDiff{Name: before.names[key], key: key}
		for _, o := range old {
			d.Removed = append(d.Removed, Removed{base.nodeID[o], uint64(base.selfSize[o])})
			d.RemovedSize += uint64(base.selfSize[o])
		}
		diffs = d.finish(diffs)
	}
	slices.SortFunc(diffs, func(a, b ClassDiff) int {
		return cmp.Or(cmp.Compare(b.SizeDelta, a.SizeDelta), cmp.Compare(b.CountDelta, a.CountDelta), cmp.Compare(a.key, b.key))
	})
	return diffs
}

// finish fills in the totals and appends d to diffs if anything changed.
func (d ClassDiff) finish(diffs []ClassDiff) []ClassDiff {
	d.AddedCount, d.RemovedCount = len(d.Added), len(d.Removed)
	if d.AddedCount == 0 && d.RemovedCount == 0 {
		return diffs
	}
	d.CountDelta = d.AddedCount - d.RemovedCount
	d.SizeDelta = int64(d.AddedSize) - int64(d.RemovedSize)
	return append(diffs, d)
}

// classMembers lists the objects (with a self size) of each class key,
// sorted by id.
type classMembers struct {
	members map[string][]uint32
	names   map[string]string
}

func (s *Snapshot) byClass(class []uint32, classes []classInfo) classMembers {
	buckets := make([][]uint32, len(classes))
	for i, c := range class {
		if s.selfSize[i] > 0 {
			buckets[c] = append(buckets[c], uint32(i))
		}
	}
	m := classMembers{members: map[string][]uint32{}, names: map[string]string{}}
	for c, b := range buckets {
		if len(b) == 0 {
			continue
		}
		slices.SortFunc(b, func(x, y uint32) int { return cmp.Compare(s.nodeID[x], s.nodeID[y]) })
		key := classes[c].key()
		m.members[key] = b
		m.names[key] = classes[c].name
	}
	return m
}
