package yarnfair

// readyHeap holds a leaf's ready apps ordered by the leaf's comparator, a
// total order (ties fall to start, name and index), so that offering a
// node to the apps in that order costs a removal per app passed over,
// not a scan and a sort of the leaf. An app's key changes only with its
// usage and demand (add), which fixes its place.
type readyHeap struct {
	apps []*app
	cmp  comparator
}

func (h *readyHeap) less(i, j int) bool { return h.cmp(&h.apps[i].sched, &h.apps[j].sched) < 0 }

func (h *readyHeap) swap(i, j int) {
	h.apps[i], h.apps[j] = h.apps[j], h.apps[i]
	h.apps[i].hpos, h.apps[j].hpos = i, j
}

func (h *readyHeap) up(i int) {
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

func (h *readyHeap) push(a *app) {
	a.hpos = len(h.apps)
	h.apps = append(h.apps, a)
	h.up(a.hpos)
}

// remove takes a out; it must be in.
func (h *readyHeap) remove(a *app) {
	i, last := a.hpos, len(h.apps)-1
	if i != last {
		h.swap(i, last)
	}
	h.apps[last] = nil
	h.apps = h.apps[:last]
	a.hpos = -1
	if i != last {
		h.fix(i)
	}
}

func (h *readyHeap) fix(i int) {
	h.up(i)
	h.down(i)
}
