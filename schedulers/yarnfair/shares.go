package yarnfair

import (
	"cmp"
	"math"

	"sojourn/replay"
)

// unbounded stands for a share with no maximum.
const unbounded = math.MaxInt64

// shareIterations is ComputeFairShares' COMPUTE_FAIR_SHARES_ITERATIONS.
const shareIterations = 25

// ComputeShares divides total of one resource among schedulables of the
// given weights (positive), minimum and maximum shares (max may be
// unbounded, math.MaxInt64), as YARN's ComputeFairShares does: it finds a
// weight-to-resource ratio R such that each gets min(max(R × weight, min),
// max) and the shares add up to total (or to the sum of the maxima, if
// smaller). R is found by doubling from 1 until the shares cover the total,
// then 25 steps of bisection; each share is the integer part at the upper
// end of the final interval. The result is written to out, which must be
// as long as weights.
func ComputeShares(weights []float64, mins, maxs []int64, total int64, out []int64) {
	computeShares(weights, mins, maxs, total, out, false)
}

// computeShares is ComputeShares; with oneByOne it sums equal shares one
// by one rather than in one product (the tests' reference).
func computeShares(weights []float64, mins, maxs []int64, total int64, out []int64, oneByOne bool) {
	if len(weights) == 0 {
		return
	}
	var totalMax int64
	for _, m := range maxs {
		totalMax = satAdd(totalMax, m)
	}
	total = min(max(total, 0), totalMax)
	uniform := !oneByOne
	for i := 1; i < len(weights) && uniform; i++ {
		uniform = weights[i] == weights[0] && mins[i] == mins[0] && maxs[i] == maxs[0]
	}
	used := func(r float64) int64 {
		if uniform {
			// The sum below of n equal shares, in one step: a leaf's
			// apps all have weight 1, no minimum and no maximum.
			if s := shareAt(weights[0], mins[0], maxs[0], r); s >= 0 {
				return satMul(s, int64(len(weights)))
			}
		}
		var s int64
		for i := range weights {
			s = satAdd(s, shareAt(weights[i], mins[i], maxs[i], r))
		}
		return s
	}
	rMax := 1.0
	for used(rMax) < total && rMax < 1e300 {
		rMax *= 2
	}
	left, right := 0.0, rMax
	for range shareIterations {
		mid := (left + right) / 2
		u := used(mid)
		if u == total {
			right = mid
			break
		}
		if u < total {
			left = mid
		} else {
			right = mid
		}
	}
	for i := range weights {
		out[i] = shareAt(weights[i], mins[i], maxs[i], right)
	}
}

// shareAt is one schedulable's share at ratio r.
func shareAt(w float64, lo, hi int64, r float64) int64 {
	s := max(w*r, float64(lo))
	if s >= float64(hi) {
		return hi
	}
	return int64(s)
}

// satMul is n × s, at most math.MaxInt64, for s >= 0 and n > 0: what n
// satAdds of s from 0 give.
func satMul(s, n int64) int64 {
	if s > math.MaxInt64/n {
		return math.MaxInt64
	}
	return s * n
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// sched is what the policies compare of a queue or an app
// (YARN's Schedulable): its resource usage, its demand (usage plus what
// it waits for), its minimum share, its weight, its start time and a
// name for the last tie.
type sched struct {
	usage, demand, min replay.Resources
	weight             float64
	start              replay.Time
	name               string // queues
	id                 int32  // apps: the job's index; queues: -1
	// dk caches the DRF comparator's view of usage, which changes only
	// with usage (add clears it): sorting a leaf's apps compares each
	// many times.
	dk drfKey
}

// drfKey is a schedulable's shares in the order of its shares of the
// cluster, largest first: of the cluster over its weight (s), and of its
// minimum share (m); needy while it uses less of its dominant resource
// than its minimum share.
type drfKey struct {
	valid bool
	needy bool
	s, m  [replay.MaxResources]float64
}

// comparator orders schedulables from the most deserving of the next
// container; preemption takes from the least deserving.
type comparator func(a, b *sched) int

// tie breaks a tie by start time, then name, then id.
func tie(a, b *sched) int {
	if c := cmp.Compare(a.start, b.start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.name, b.name); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// fairCompare is FairSharePolicy's comparator, on memory: a schedulable
// below its minimum share (capped by its demand) comes first; two such
// compare by usage over that minimum share, two others by usage over
// weight.
func fairCompare(a, b *sched) int {
	am, bm := min(a.min[0], a.demand[0]), min(b.min[0], b.demand[0])
	an, bn := a.usage[0] < am, b.usage[0] < bm
	switch {
	case an && !bn:
		return -1
	case bn && !an:
		return 1
	}
	var ra, rb float64
	if an {
		ra = float64(a.usage[0]) / float64(max(am, 1))
		rb = float64(b.usage[0]) / float64(max(bm, 1))
	} else {
		ra = float64(a.usage[0]) / a.weight
		rb = float64(b.usage[0]) / b.weight
	}
	if c := cmp.Compare(ra, rb); c != 0 {
		return c
	}
	return tie(a, b)
}

// fifoCompare is FifoPolicy's comparator: start time, then id.
func fifoCompare(a, b *sched) int { return tie(a, b) }

// drf compares by Dominant Resource Fairness over the cluster's
// resources (DominantResourceFairnessPolicy).
type drf struct {
	cluster replay.Resources
	n       int // resources compared
}

// shares fills s with usage over base (× weight) per resource and order
// with the resources by decreasing share (ties: the later resource
// first, as YARN orders memory after vcores when equal).
func (d *drf) shares(usage, base *replay.Resources, weight float64, s *[replay.MaxResources]float64, order *[replay.MaxResources]int) {
	for r := 0; r < d.n; r++ {
		s[r] = float64(usage[r]) / (float64(base[r]) * weight)
		if math.IsNaN(s[r]) {
			s[r] = 0 // 0/0: nothing used of nothing
		}
		order[r] = r
	}
	for i := 1; i < d.n; i++ {
		for j := i; j > 0 && s[order[j]] >= s[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// descShares sets s to usage's shares of base over weight, largest
// first (a 0/0 share 0): the key of a schedulable never needy, whose
// resources are compared by value alone.
func (d *drf) descShares(usage, base *replay.Resources, weight float64, s *[replay.MaxResources]float64) {
	for r := 0; r < d.n; r++ {
		v := float64(usage[r]) / (float64(base[r]) * weight)
		if math.IsNaN(v) {
			v = 0 // 0/0: nothing used of nothing
		}
		j := r
		for ; j > 0 && s[j-1] < v; j-- {
			s[j] = s[j-1]
		}
		s[j] = v
	}
}

// compare is the DominantResourceFairnessComparator: a schedulable is
// needy while its usage of its dominant resource is below its minimum
// share of it; needy ones come first and compare by their shares of
// their minimum shares; the others compare by their shares of the
// cluster over their weight, the dominant first, then the next.
func (d *drf) compare(a, b *sched) int {
	ka, kb := d.key(a), d.key(b)
	var c int
	switch {
	case ka.needy && !kb.needy:
		c = -1
	case kb.needy && !ka.needy:
		c = 1
	case ka.needy:
		c = d.lexi(&ka.m, &kb.m)
	default:
		c = d.lexi(&ka.s, &kb.s)
	}
	if c != 0 {
		return c
	}
	return tie(a, b)
}

// key computes (or recalls) a's drfKey.
func (d *drf) key(a *sched) *drfKey {
	k := &a.dk
	if k.valid {
		return k
	}
	if a.min == (replay.Resources{}) {
		// Never needy (an app, a queue with no min share): the shares
		// of the min share are never compared.
		d.descShares(&a.usage, &d.cluster, a.weight, &k.s)
		k.m = [replay.MaxResources]float64{}
		k.needy, k.valid = false, true
		return k
	}
	var s, m [replay.MaxResources]float64
	var o, tmp [replay.MaxResources]int
	d.shares(&a.usage, &d.cluster, a.weight, &s, &o)
	d.shares(&a.usage, &a.min, 1, &m, &tmp)
	for i := 0; i < d.n; i++ {
		k.s[i], k.m[i] = s[o[i]], m[o[i]]
	}
	k.needy = a.min[o[0]] > 0 && m[o[0]] < 1
	k.valid = true
	return k
}

func (d *drf) lexi(sa, sb *[replay.MaxResources]float64) int {
	for i := 0; i < d.n; i++ {
		if c := cmp.Compare(sa[i], sb[i]); c != 0 {
			return c
		}
	}
	return 0
}

// dominantShare is the largest of usage's shares of the cluster.
func (d *drf) dominantShare(usage *replay.Resources) float64 {
	var s float64
	for r := 0; r < d.n; r++ {
		if d.cluster[r] > 0 {
			s = max(s, float64(usage[r])/float64(d.cluster[r]))
		}
	}
	return s
}
