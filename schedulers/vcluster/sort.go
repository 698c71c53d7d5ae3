package vcluster

import (
	"cmp"
	"math"
	"slices"
)

// The projection sorts the jobs three times: by remaining work and by cap
// (the jobs still aging), and by finish (the Order). From one projection
// to the next these orders barely change: a job arrives, one is
// re-estimated or removed, the rest age alike. So each sorted list is kept
// and the next sort starts from it, by insertion. The keys are distinct
// (they end with the job id), so any sort gives the same order.

// sortKind is what a kept list sorts by.
type sortKind uint8

const (
	byWorkKind   sortKind = iota // the jobs still aging, by remaining work
	byCapKind                    // the jobs still aging, by cap
	byFinishKind                 // every job, as Order reports them
)

// sortKey is a job's place in a sort: by x, then seq, then id. Sorting
// these, rather than indices looked up through the jobs, is what makes a
// projection cheap.
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

// listed reports whether job j belongs in a list of kind kind.
func listed(j *vjob, kind sortKind) bool {
	return kind == byFinishKind || j.state == stLevel
}

// keyOf is job j's (at index i) key in a list of kind kind.
func keyOf(j *vjob, i int32, kind sortKind) sortKey {
	switch kind {
	case byWorkKind:
		return sortKey{x: j.work, id: j.id, i: i}
	case byCapKind:
		return sortKey{x: j.cap, id: j.id, i: i}
	}
	// Recorded finishes are ≤ now ≤ projected ones, and sequence numbers
	// follow recorded finish times; unfinished jobs rank after finished
	// ones that finished at the same time.
	seq := math.MaxInt
	if j.finished {
		seq = j.seq
	}
	return sortKey{x: j.finish, seq: seq, id: j.id, i: i}
}

// resort sorts the jobs of kind kind, starting from the kept list *keys
// (the last projection's order), keeps the new one there and returns the
// jobs' indices in order, in dst.
func (vc *Cluster) resort(keys *[]sortKey, kind sortKind, dst []int32) []int32 {
	vc.epoch++
	if vc.epoch == 0 { // wrapped: no job may look marked
		for i := range vc.jobs {
			vc.jobs[i].mark = 0
		}
		vc.epoch = 1
	}
	// The jobs of the last order still listed, in that order (in place:
	// the write position never passes the read one), then the others.
	ks := (*keys)[:0]
	for _, k := range *keys {
		i, ok := vc.index.get(k.id)
		if !ok {
			continue
		}
		j := &vc.jobs[i]
		if !listed(j, kind) {
			continue
		}
		j.mark = vc.epoch
		ks = append(ks, keyOf(j, i, kind))
	}
	for i := range vc.jobs {
		if j := &vc.jobs[i]; j.mark != vc.epoch && listed(j, kind) {
			ks = append(ks, keyOf(j, int32(i), kind))
		}
	}
	sortNearly(ks)
	*keys = ks
	dst = dst[:0]
	for _, k := range ks {
		dst = append(dst, k.i)
	}
	return dst
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
