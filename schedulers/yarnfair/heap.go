package yarnfair

import "sojourn/replay"

// readyHeap holds a leaf's ready apps ordered by the leaf's comparator, a
// total order (ties fall to start, name and index), so that offering a
// node to the apps in that order costs a removal per app passed over,
// not a scan and a sort of the leaf. An app's key changes only with its
// usage (add), which moves it.
//
// A DRF leaf compares the apps' heapKeys (drf set, n resources) rather
// than calling its comparator: the same order, read from one place.
type readyHeap struct {
	apps []*app
	cmp  comparator
	drf  bool
	n    int
}

func (h *readyHeap) less(i, j int) bool {
	a, b := h.apps[i], h.apps[j]
	if h.drf {
		return a.hk.less(&b.hk, h.n)
	}
	return h.cmp(&a.sched, &b.sched) < 0
}

func (h *readyHeap) swap(i, j int) {
	h.apps[i], h.apps[j] = h.apps[j], h.apps[i]
	h.apps[i].hk.hpos, h.apps[j].hk.hpos = int32(i), int32(j)
}

func (h *readyHeap) up(i int) {
	if h.drf {
		h.upKey(i)
		return
	}
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *readyHeap) down(i int) {
	if h.drf {
		h.downKey(i)
		return
	}
	n := len(h.apps)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

// upKey and downKey are up and down for a DRF leaf: the heapKeys
// compared in line, and the moving app written once, where it stops
// (the same places as swapping it along).
func (h *readyHeap) upKey(i int) {
	apps, m := h.apps, h.n
	a := apps[i]
	for i > 0 {
		p := (i - 1) / 2
		b := apps[p]
		if !a.hk.less(&b.hk, m) {
			break
		}
		apps[i], b.hk.hpos = b, int32(i)
		i = p
	}
	apps[i], a.hk.hpos = a, int32(i)
}

func (h *readyHeap) downKey(i int) {
	apps, n, m := h.apps, len(h.apps), h.n
	a := apps[i]
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		b := apps[c]
		if c+1 < n && apps[c+1].hk.less(&b.hk, m) {
			c++
			b = apps[c]
		}
		if !b.hk.less(&a.hk, m) {
			break
		}
		apps[i], b.hk.hpos = b, int32(i)
		i = c
	}
	apps[i], a.hk.hpos = a, int32(i)
}

func (h *readyHeap) push(a *app) {
	i := len(h.apps)
	a.hk.hpos = int32(i)
	h.apps = append(h.apps, a)
	h.up(i)
}

// remove takes a out; it must be in.
func (h *readyHeap) remove(a *app) {
	i, last := int(a.hk.hpos), len(h.apps)-1
	if i != last {
		h.swap(i, last)
	}
	h.apps[last] = nil
	h.apps = h.apps[:last]
	a.hk.hpos = -1
	if i != last {
		h.fix(i)
	}
}

func (h *readyHeap) fix(i int) {
	h.up(i)
	h.down(i)
}

// heapKey is what a DRF leaf's heap compares of an app, kept together
// (and first in the app) so that a comparison reads one cache line: the
// app's drfKey.s, its start and id, and its place in the heap (-1 when
// out).
type heapKey struct {
	s     [replay.MaxResources]float64
	start replay.Time
	id    int32
	hpos  int32
}

// less is drf.compare(a, b) < 0 for two apps: apps have no minimum
// share, so are never needy, and no name, so tie falls from start to
// id. Shares are never NaN (drf.shares makes 0/0 zero), so != and < are
// cmp.Compare's order.
func (a *heapKey) less(b *heapKey, n int) bool {
	for r := 0; r < n; r++ {
		if a.s[r] != b.s[r] {
			return a.s[r] < b.s[r]
		}
	}
	if a.start != b.start {
		return a.start < b.start
	}
	return a.id < b.id
}
