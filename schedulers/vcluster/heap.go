package vcluster

// The cluster keeps its jobs in binary heaps, each entry a (key, id) pair
// and the job's index, and each job its position in every heap it is in,
// so that a change of one job costs O(log n) whatever the backlog.

// Which heap: level jobs by virtual finish and by cap, capped jobs by
// finish time and by cap (largest first), and the active (not passive)
// jobs of each kind again by finish, which the walk of the Order reads.
const (
	hLevelF = iota // level jobs by (F, id)
	hLevelC        // level jobs by (cap, id)
	hCapT          // capped jobs by (T, id)
	hCapC          // capped jobs by (−cap, id)
	hActF          // active level jobs by (F, id)
	hActT          // active capped jobs by (T, id)
	nHeaps
)

type hent struct {
	x  float64
	id int64
	i  int32 // the job's index in jobs
}

func hless(a, b *hent) bool {
	return a.x < b.x || a.x == b.x && a.id < b.id
}

func (vc *Cluster) hset(h int, p int, e hent) {
	vc.heaps[h][p] = e
	vc.jobs[e.i].pos[h] = int32(p)
}

func (vc *Cluster) hpush(h int, e hent) {
	vc.heaps[h] = append(vc.heaps[h], e)
	vc.up(h, len(vc.heaps[h])-1, e)
}

func (vc *Cluster) up(h, p int, e hent) {
	s := vc.heaps[h]
	for p > 0 {
		q := (p - 1) / 2
		if !hless(&e, &s[q]) {
			break
		}
		vc.hset(h, p, s[q])
		p = q
	}
	vc.hset(h, p, e)
}

func (vc *Cluster) down(h, p int, e hent) {
	s := vc.heaps[h]
	n := len(s)
	for {
		c := 2*p + 1
		if c >= n {
			break
		}
		if c+1 < n && hless(&s[c+1], &s[c]) {
			c++
		}
		if !hless(&s[c], &e) {
			break
		}
		vc.hset(h, p, s[c])
		p = c
	}
	vc.hset(h, p, e)
}

// hremove takes job i out of heap h.
func (vc *Cluster) hremove(h int, i int32) {
	p := int(vc.jobs[i].pos[h])
	s := vc.heaps[h]
	last := s[len(s)-1]
	vc.heaps[h] = s[:len(s)-1]
	vc.jobs[i].pos[h] = -1
	if p == len(s)-1 {
		return
	}
	if p > 0 && hless(&last, &vc.heaps[h][(p-1)/2]) {
		vc.up(h, p, last)
	} else {
		vc.down(h, p, last)
	}
}

// hmove re-indexes the entry of the job moved from index from to index to.
func (vc *Cluster) hmove(to int32) {
	for h := range nHeaps {
		if p := vc.jobs[to].pos[h]; p >= 0 {
			vc.heaps[h][p].i = to
		}
	}
}

func (vc *Cluster) top(h int) *hent {
	if len(vc.heaps[h]) == 0 {
		return nil
	}
	return &vc.heaps[h][0]
}
