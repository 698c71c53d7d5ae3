package vcluster

import (
	"cmp"
	"slices"
)

// The projection needs the jobs still aging by remaining work and by cap,
// and gives the Order, by finish. From one projection to the next these
// orders barely change: a job arrives, one is re-estimated or removed, the
// rest age alike (and aging the same amount keeps sizes in order). So the
// list by work is kept and the next sort starts from it, by insertion; the
// list by cap, which aging does not change, is kept in order as jobs come,
// go and change caps; and the Order comes out of the sweep in order of
// time, its ties left to sort. The keys are distinct (they end with the
// job id), so any sort gives the same order.

// sortKey is a job's place in a sort: by x, then seq, then id. Sorting
// these, rather than indices looked up through the jobs, is what makes a
// projection cheap. i is the job's index in jobs, valid until a job is
// removed.
type sortKey struct {
	x   float64
	seq int
	id  int64
	i   int32
}

// compareKeys orders sort keys. Sizes, caps and times are never NaN
// (Add and Update refuse it), so < is cmp.Compare.
func compareKeys(a, b sortKey) int {
	switch {
	case a.x < b.x:
		return -1
	case a.x > b.x:
		return 1
	case a.seq != b.seq:
		return cmp.Compare(a.seq, b.seq)
	}
	return cmp.Compare(a.id, b.id)
}

// keyLess is compareKeys(a, b) < 0, for the insertion sort's inner loop.
func keyLess(a, b *sortKey) bool {
	if a.x != b.x {
		return a.x < b.x
	}
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	return a.id < b.id
}

// sortByWork returns the jobs at the level (state st), by remaining work
// and id, sorted from the last projection's list: the jobs still at the
// level in that order, then those added or updated since (the only others
// that may be at the level). project has written each listed job's new
// work in its key, and Remove has kept the keys' indices, so the pass
// reads the list alone, not the job records in the list's order, which
// on a long backlog is a cache miss per job.
func (vc *Cluster) sortByWork(st []uint8) []sortKey {
	// In place: the write position never passes the read one.
	ks := vc.workKeys[:0]
	for _, k := range vc.workKeys {
		if k.i < 0 { // removed
			continue
		}
		if st[k.i] != stLevel {
			vc.wpos[k.i] = -1
			continue
		}
		ks = append(ks, k)
	}
	for _, id := range vc.fresh {
		i, ok := vc.index.get(id)
		if !ok || st[i] != stLevel || vc.wpos[i] >= 0 {
			continue
		}
		vc.wpos[i] = 0 // listed: a later copy of its id adds nothing
		ks = append(ks, sortKey{x: vc.jobs[i].work, id: id, i: i})
	}
	vc.fresh = vc.fresh[:0]
	sortNearly(ks)
	for p, k := range ks {
		vc.wpos[k.i] = int32(p)
	}
	vc.workKeys = ks
	return ks
}

// capKey is a job's place in the list by cap.
type capKey struct {
	cap float64
	id  int64
}

func compareCaps(a capKey, b capKey) int {
	switch {
	case a.cap < b.cap:
		return -1
	case a.cap > b.cap:
		return 1
	}
	return cmp.Compare(a.id, b.id)
}

// insertCap and deleteCap keep every job in the list by (cap, id).
func (vc *Cluster) insertCap(id int64, c float64) {
	k := capKey{c, id}
	p, _ := slices.BinarySearchFunc(vc.caps, k, compareCaps)
	vc.caps = slices.Insert(vc.caps, p, k)
}

func (vc *Cluster) deleteCap(id int64, c float64) {
	if p, ok := slices.BinarySearchFunc(vc.caps, capKey{c, id}, compareCaps); ok {
		vc.caps = slices.Delete(vc.caps, p, p+1)
	}
}

// sortNearly sorts keys that are mostly in order: by insertion, and with
// a full sort once the insertions have moved keys more than a few times
// their number.
func sortNearly(keys []sortKey) {
	budget := 4*len(keys) + 16
	for i := 1; i < len(keys); i++ {
		if !keyLess(&keys[i], &keys[i-1]) {
			continue
		}
		k := keys[i]
		p := i - 1
		for p > 0 && keyLess(&k, &keys[p-1]) {
			p--
		}
		if budget -= i - p; budget < 0 {
			slices.SortFunc(keys, compareKeys)
			return
		}
		copy(keys[p+1:i+1], keys[p:i])
		keys[p] = k
	}
}
