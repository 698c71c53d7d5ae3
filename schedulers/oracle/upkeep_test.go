package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/swim"
)

// Tests of the oracles' incremental upkeep (oracle.go, oracle_preempt.go):
// at every step the order, the candidates, the targets, the preemption
// choices and the wish for busy heartbeats must be what a recomputation
// over every job gives, as the oracles once computed them.

// upkeepChecker recomputes what the Oracle keeps and reports the first
// difference.
type upkeepChecker struct {
	err    error
	checks map[string]int
}

func (c *upkeepChecker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// refTargets is the targets of kind k per order position, recomputed from
// scratch: demands read from the view, groups from the keys.
func refTargets(o *Oracle, v *replay.View, k replay.TaskKind) []int32 {
	demand := make([]int32, len(o.order))
	for i, j := range o.order {
		jv := v.Job(j)
		d := jv.Running(k) + jv.Suspended(k)
		if k == replay.Map || jv.ReducesEligible() {
			d += jv.Pending(k)
		}
		demand[i] = int32(d)
	}
	target := make([]int32, len(o.order))
	budget := int32(v.Slots(k))
	for lo := 0; lo < len(o.order); {
		hi := lo + 1
		for o.rank.shared && hi < len(o.order) && o.jobs[o.order[hi]].key == o.jobs[o.order[lo]].key {
			hi++
		}
		used, _ := waterFill(demand[lo:hi], budget, target[lo:hi], nil)
		budget -= used
		lo = hi
	}
	return target
}

func (c *upkeepChecker) check(o *Oracle, v *replay.View, hb *replay.Heartbeat, what string, k replay.TaskKind) {
	if c.err != nil {
		return
	}
	c.checks[what]++
	now := v.Now()
	switch what {
	case "order":
		if o.reorder || len(o.rekey) > 0 {
			c.fail("%v: order left unsorted", now)
		}
		// srpt's stored keys may be as old as the last check of their
		// pairs: the order must be the one the keys evaluated now give.
		keyOf := func(j int32) float64 {
			if o.name == "srpt" {
				return o.remainingWork(j)
			}
			return o.jobs[j].key
		}
		for i, j := range o.order {
			jb := &o.jobs[j]
			if !jb.live || jb.pos != int32(i) {
				c.fail("%v: job %d at %d: live %v, pos %d", now, j, i, jb.live, jb.pos)
			}
			key := keyOf(j)
			var want float64
			switch o.name {
			case "srpt":
				// The work of the unfinished tasks less what their live
				// attempts have run, recomputed over the tasks at every
				// 32nd check (it walks every task).
				if c.checks[what]%32 != 0 {
					want = key
					break
				}
				jv := v.Job(j)
				for k := replay.Map; k <= replay.Reduce; k++ {
					for i := range jv.Tasks(k) {
						tv := v.Task(replay.TaskRef{Job: j, Kind: k, Index: int32(i)})
						switch {
						case tv.Done():
						case tv.Running() || tv.Suspended():
							want += tv.Work() - tv.RunTime().Sec()
						default:
							want += tv.Work()
						}
					}
				}
				want = max(0, want)
				if math.Abs(key-want) <= 1e-6*max(1, want) {
					want = key // rounding: the key sums in another order
				}
			case "las", "ps":
				if !o.rank.attained {
					break // ps without a quantum: every key 0
				}
				want = jb.base + jb.level
				if a := jb.attainedAt(now); a >= jb.levelEnd {
					c.fail("%v: job %d attained %v past its level's end %v", now, j, a, jb.levelEnd)
				}
				if jb.check <= now {
					c.fail("%v: job %d check %v not after now", now, j, jb.check)
				} else if jb.check != replay.Never && jb.attainedAt(jb.check-1) >= jb.levelEnd {
					c.fail("%v: job %d reaches its level's end %v before its check %v", now, j, jb.levelEnd, jb.check)
				}
			}
			if key != want {
				c.fail("%v: job %d key %v, want %v", now, j, key, want)
			}
			if i > 0 {
				a, b := &o.jobs[o.order[i-1]], jb
				ka := keyOf(o.order[i-1])
				if ka > key || ka == key && (a.submit > b.submit || a.submit == b.submit && o.order[i-1] > j) {
					c.fail("%v: order %v unsorted at %d", now, o.order, i)
				}
			}
		}
		if o.rank.shared {
			groups := []int32{0}
			for i := 1; i < len(o.order); i++ {
				if o.jobs[o.order[i]].key != o.jobs[o.order[i-1]].key {
					groups = append(groups, int32(i))
				}
			}
			if groups = append(groups, int32(len(o.order))); !slices.Equal(groups, o.groups) {
				c.fail("%v: groups %v, want %v", now, o.groups, groups)
			}
		}
	case "fill":
		cand := o.cand[k]
		if o.candVer[k] != o.orderVer {
			c.fail("%v: candidates of %v out of date", now, k)
		}
		for i, j := range cand {
			if !o.jobs[j].live || !o.jobs[j].inCand[k] || i > 0 && o.jobs[cand[i-1]].pos >= o.jobs[j].pos {
				c.fail("%v: candidates of %v %v: job %d misplaced", now, k, cand, j)
			}
		}
		for _, j := range o.order {
			if mayServe(v.Job(j), k) && !slices.Contains(cand, j) {
				c.fail("%v: job %d may use a %v slot but is not a candidate (%v)", now, j, k, cand)
			}
		}
		if o.rank.shared {
			// The heap: the candidates of the first group, each at its
			// index, in heap order, its root the candidate the scan over
			// them would pick.
			first := 0
			for first < len(cand) && o.jobs[cand[first]].key == o.jobs[cand[0]].key {
				first++
			}
			h := o.pick[k]
			if len(h) != first {
				c.fail("%v: %v heap of %d jobs, %d candidates in the first group", now, k, len(h), first)
			}
			for i, j := range h {
				if !slices.Contains(cand[:first], j) || o.jobs[j].at[k] != int32(i) {
					c.fail("%v: %v heap holds job %d at %d (its index %d)", now, k, j, i, o.jobs[j].at[k])
				}
				if i > 0 && o.pickLess(k, j, h[(i-1)/2]) {
					c.fail("%v: %v heap out of order at %d", now, k, i)
				}
			}
			best := int32(-1)
			for _, j := range cand[:first] {
				if best < 0 || o.pickLess(k, j, best) {
					best = j
				}
			}
			if len(h) > 0 && h[0] != best {
				c.fail("%v: %v heap's root %d, the scan's pick %d", now, k, h[0], best)
			}
		}
	case "targets":
		want := refTargets(o, v, k)
		if !slices.Equal(o.target[k], want) {
			c.fail("%v: %v targets %v, want %v", now, k, o.target[k], want)
		}
	case "preempt":
		target := refTargets(o, v, k)
		needy := -1
		for i, j := range o.order {
			if target[i] <= int32(hb.Job(j).Running(k)) {
				continue
			}
			if _, ok := oldestSuspended(hb, j, k); ok || o.canLaunch(hb, k, j) {
				needy = i
				break
			}
		}
		if got := o.needy(hb, k); needy < 0 && got >= 0 || needy >= 0 && got != o.order[needy] {
			c.fail("%v: needy job %d, want position %d", now, got, needy)
		}
		if needy < 0 {
			return
		}
		var want replay.TaskRef
		found := false
	victims:
		for i := len(o.order) - 1; i > needy; i-- {
			j := o.order[i]
			if target[i] >= int32(hb.Job(j).Running(k)) {
				continue
			}
			for _, r := range hb.Running() {
				if r.Job == j && r.Kind == k && (!found || olderTask(hb.View, want, r)) {
					want, found = r, true
				}
			}
			if found {
				break victims
			}
		}
		if got, ok := o.victim(hb, k, int32(needy)); ok != found || got != want {
			c.fail("%v: victim %v (%v), want %v (%v)", now, got, ok, want, found)
		}
	case "wish":
		target := refTargets(o, v, k)
		needy, want := false, false
		for i, j := range o.order {
			jv := v.Job(j)
			r := int32(jv.Running(k))
			launchable := jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
			if o.o.rounds && (jv.Suspended(k) > 0 || launchable) {
				want = true // time slicing: a quantum may end before the next event
				break
			}
			if target[i] > r && (jv.Suspended(k) > 0 || launchable) {
				needy = true
			} else if needy && target[i] < r {
				want = true
				break
			}
		}
		if o.wish[k] != want {
			c.fail("%v: %v wish %v, want %v", now, k, o.wish[k], want)
		}
	}
}

// TestOracleUpkeep replays a busy trace under srpt, las and ps with
// preemption of both kinds, node failures and a low cap of suspended tasks,
// checking the upkeep at every step, and checks that the checks change
// nothing.
func TestOracleUpkeep(t *testing.T) {
	tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: 3, Jobs: 30, Nodes: 12, MeanGap: 30})
	if err != nil {
		t.Fatal(err)
	}
	opts := []map[string]string{
		nil,
		{"preemption": "kill", "map-preemption": "eager"},
		{"preemption": "wait", "map-preemption": "kill"},
	}
	// ps also slices time, suspending reduces only, then maps too.
	sliced := []map[string]string{{"quantum": "15"}, {"quantum": "15", "map-preemption": "eager"}}
	builders := map[string]replaytest.Builder{"srpt": SRPT.Build, "las": LAS.Build, "ps": PS.Build}
	for _, name := range []string{"srpt", "las", "ps"} {
		for ci, cfg := range replaytest.UpkeepClusters() {
			opts := opts
			if name == "ps" {
				opts = append(slices.Clip(opts), sliced...)
			}
			for oi, opt := range opts {
				if name == "las" {
					opt = mapsWith(opt, "quantum", "20", "factor", "1.5")
				}
				plain := replaytest.Run(t, tr, replaytest.Build(t, builders[name], opt), cfg)
				o := replaytest.Build(t, builders[name], opt).(*Oracle)
				c := &upkeepChecker{checks: map[string]int{}}
				o.verify = c.check
				checked := replaytest.Run(t, tr, o, cfg)
				if c.err != nil {
					t.Fatalf("%s, config %d, options %d: %v", name, ci, oi, c.err)
				}
				replaytest.SameJobs(t, fmt.Sprintf("%s, config %d, options %d", name, ci, oi), plain, checked)
				t.Logf("%s, config %d, options %d: mean sojourn %.1f s, checks %v", name, ci, oi, plain.MeanSojourn(), c.checks)
			}
		}
	}
}

// mapsWith is m with the given keys and values added.
func mapsWith(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestSortByDemand: the packed sort and the insertion resort give the
// comparison sort's order, ties by index.
func TestSortByDemand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var packed []uint64
	for n := 0; n < 200; n++ {
		demand := make([]int32, rng.IntN(40))
		for i := range demand {
			demand[i] = int32(rng.IntN(6))
		}
		want := make([]int32, len(demand))
		for i := range want {
			want[i] = int32(i)
		}
		sortByDemand(demand, want)
		got := make([]int32, len(demand))
		packed = sortByDemandPacked(demand, got, packed)
		if !slices.Equal(got, want) {
			t.Fatalf("packed sort of %v: %v, want %v", demand, got, want)
		}
		for i := range demand { // demands move a little
			demand[i] = max(0, demand[i]+int32(rng.IntN(3))-1)
		}
		sortByDemand(demand, want)
		resortByDemand(demand, got)
		if !slices.Equal(got, want) {
			t.Fatalf("resort of %v: %v, want %v", demand, got, want)
		}
	}
}
