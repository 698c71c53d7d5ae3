package yarnfair

import (
	"math/rand/v2"
	"slices"
	"testing"

	"sojourn/replay"
)

// drfApps returns n apps of a DRF leaf over cluster, with usages drawn
// from few values so that shares and start times tie often.
func drfApps(rng *rand.Rand, d *drf, n int) []*app {
	apps := make([]*app, n)
	for i := range apps {
		a := &app{sched: sched{weight: 1, start: replay.Time(rng.IntN(3)), id: int32(n - i)}}
		a.hk.start, a.hk.id, a.hk.hpos = a.start, a.id, -1
		for r := 0; r < d.n; r++ {
			a.usage[r] = int64(rng.IntN(4)) * []int64{1024, 1, 1, 1}[r]
		}
		d.descShares(&a.usage, &d.cluster, 1, &a.hk.s)
		apps[i] = a
	}
	return apps
}

// TestHeapKeyIsDRFCompare checks that the apps' heapKeys order them as
// drf.compare does, ties to start and id included, on clusters with a
// resource of none (0/0 shares are 0, x/0 infinite).
func TestHeapKeyIsDRFCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []*drf{
		{cluster: replay.Resources{4096, 4}, n: 2},
		{cluster: replay.Resources{4096, 0}, n: 2},
		{cluster: replay.Resources{3072, 6, 2}, n: 3},
		{cluster: replay.Resources{2048, 3, 0, 5}, n: 4},
	} {
		apps := drfApps(rng, d, 60)
		for _, a := range apps {
			// The shares as the needy path orders them, by index.
			var s, want [replay.MaxResources]float64
			var o [replay.MaxResources]int
			d.shares(&a.usage, &d.cluster, 1, &s, &o)
			for i := 0; i < d.n; i++ {
				want[i] = s[o[i]]
			}
			if a.hk.s != want {
				t.Fatalf("cluster %v usage %v: heap key %v, shares in order %v", d.cluster, a.usage, a.hk.s, want)
			}
		}
		for _, a := range apps {
			for _, b := range apps {
				if got, want := a.hk.less(&b.hk, d.n), d.compare(&a.sched, &b.sched) < 0; got != want {
					t.Fatalf("cluster %v: %v (start %d id %d) before %v (start %d id %d): heapKey %v, drf.compare %v",
						d.cluster, a.usage, a.start, a.id, b.usage, b.start, b.id, got, want)
				}
			}
		}
	}
}

// TestDRFHeapTopFollowsUsage moves apps' usage up and down in a DRF
// leaf's heap as add does and checks after each move that the heap's
// top is the least app by drf.compare and every app knows its place.
func TestDRFHeapTopFollowsUsage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := &drf{cluster: replay.Resources{8192, 8}, n: 2}
	p := &YARNFair{drf: *d, nres: 2}
	q := &queue{leaf: true, pol: polDRF}
	q.heap = readyHeap{cmp: d.compare, drf: true, n: 2}
	apps := drfApps(rng, d, 40)
	for _, a := range apps {
		a.q = q
		q.heap.push(a)
	}
	for step := 0; step < 2000; step++ {
		a := apps[rng.IntN(len(apps))]
		req := replay.Resources{1024 * int64(rng.IntN(2)), int64(rng.IntN(2))}
		du := int64(1)
		if rng.IntN(2) == 0 && a.usage[0] >= req[0] && a.usage[1] >= req[1] {
			du = -1
		}
		p.add(a, &req, du, 0)
		least := slices.MinFunc(apps, func(a, b *app) int { return d.compare(&a.sched, &b.sched) })
		if top := q.heap.apps[0]; top != least {
			t.Fatalf("step %d: top is app %d (usage %v), want app %d (usage %v)", step, top.id, top.usage, least.id, least.usage)
		}
		for i, b := range q.heap.apps {
			if int(b.hk.hpos) != i {
				t.Fatalf("step %d: app %d at %d thinks it is at %d", step, b.id, i, b.hk.hpos)
			}
		}
	}
}
