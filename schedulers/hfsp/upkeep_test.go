package hfsp

import (
	"fmt"
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/schedulers/internal/delay"
	"sojourn/swim"
)

// Tests of HFSP's incremental upkeep (hfsp_ledger.go, local.go, the
// sampling lists): at every heartbeat, before and after the policy acts,
// what it keeps must be what a recomputation from the cluster gives.

// hfspChecker wraps HFSP and checks its upkeep around every heartbeat.
type hfspChecker struct {
	*HFSP
	err    error
	checks int
	// The Quieter's answers at the last QuietVersion the engine asked for,
	// and how many times it was asked again at the same version.
	view       *replay.View
	ver        uint64
	verAnswers quietAnswers
	verSame    int
}

type quietAnswers struct {
	wantsMaps, wantsReduces bool
	until                   replay.Time
}

func (c *hfspChecker) Start(v *replay.View) error {
	c.view = v
	return c.HFSP.Start(v)
}

// QuietVersion checks that the Quieter's answers have not changed while
// the version has not (the engine then takes them as they were).
func (c *hfspChecker) QuietVersion() uint64 {
	v := c.HFSP.QuietVersion()
	a := quietAnswers{c.WantsSlots(replay.Map, c.view), c.WantsSlots(replay.Reduce, c.view), c.QuietUntil(c.view)}
	if v == c.ver && c.verSame >= 0 {
		c.verSame++
		if a != c.verAnswers {
			c.fail("%v: quiet version %d unchanged, answers %+v, were %+v", c.view.Now(), v, a, c.verAnswers)
		}
	}
	c.ver, c.verAnswers = v, a
	return v
}

func (c *hfspChecker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

func (c *hfspChecker) OnHeartbeat(hb *replay.Heartbeat) error {
	// OnHeartbeat starts with the same advance: calling it first changes
	// nothing, and brings the virtual clusters up to date for the checks.
	c.advance(hb.Now().Sec())
	c.check(hb)
	err := c.HFSP.OnHeartbeat(hb)
	c.check(hb)
	return err
}

func (c *hfspChecker) check(hb *replay.Heartbeat) {
	if c.err != nil {
		return
	}
	c.checks++
	c.checkLedger(hb.View)
	c.checkLocality(hb)
	c.checkSampling(hb.View)
	c.checkServable(hb.View)
}

// checkServable compares the kept mayServe and launchable flags, and the
// ready counts, with their definitions.
func (c *hfspChecker) checkServable(v *replay.View) {
	h := c.HFSP
	for k := replay.Map; k <= replay.Reduce; k++ {
		for j := range h.jobs {
			if want := h.mayServe(v, k, int32(j)); h.servable(k, int32(j)) != want {
				c.fail("%v: job %d %v: servable %v, mayServe %v", v.Now(), j, k, h.servable(k, int32(j)), want)
				return
			}
		}
		var ready int32
		for j := range h.jobs {
			jv := v.Job(int32(j))
			want := h.mayServe(v, k, int32(j)) && jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
			if got := h.launchable(k, int32(j)); got != want {
				c.fail("%v: job %d %v: launchable %v, want %v", v.Now(), j, k, got, want)
				return
			}
			if want && h.jobs[j].inVC[k] {
				ready++
			}
		}
		if ready != h.ready[k] {
			c.fail("%v: %v: ready %d, counted %d", v.Now(), k, h.ready[k], ready)
		}
	}
}

// checkLedger compares the reduce ledger with the allotment walked from
// scratch, as HFSP once computed it on every call.
func (c *hfspChecker) checkLedger(v *replay.View) {
	h := c.HFSP
	l := h.ledger(v)
	budget := int32(v.Slots(replay.Reduce))
	for i, id := range h.orderOf(replay.Reduce) {
		run, susp, launch := h.reduceCounts(v, int32(id))
		a := min(run+susp+launch, budget)
		budget -= a
		needy := a > run && (launch > 0 || susp > 0)
		over := a < run
		bit := func(s []uint64) bool { return s[i>>6]&(1<<(i&63)) != 0 }
		if l.run[i] != run || l.susp[i] != susp || l.launch[i] != launch || l.allotted(i) != a ||
			bit(l.needy) != needy || bit(l.over) != over {
			c.fail("%v: reduce position %d (job %d): ledger %d/%d/%d allotted %d needy %v over %v, want %d/%d/%d allotted %d needy %v over %v",
				v.Now(), i, id, l.run[i], l.susp[i], l.launch[i], l.allotted(i), bit(l.needy), bit(l.over),
				run, susp, launch, a, needy, over)
			return
		}
	}
}

// checkLocality checks, on the reporting node, that a job whose bitmap
// says it has no map there (or on its rack) indeed has none.
func (c *hfspChecker) checkLocality(hb *replay.Heartbeat) {
	h := c.HFSP
	n := hb.Node()
	for j := range h.jobs {
		hj, w := &h.jobs[j], &h.waits[j]
		if !hj.arrived[replay.Map] || hj.realDone[replay.Map] {
			continue
		}
		if h.delay > 0 && (w.mark == delay.Skipped || w.waited > 0) && w.bits < 0 {
			c.fail("%v: job %d waits with no locality bitmap", hb.Now(), j)
			return
		}
		if w.bits < 0 {
			continue
		}
		for lvl := replay.NodeLocal; lvl <= replay.RackLocal; lvl++ {
			p, b := h.local.nodeBit(w.bits, n)
			if lvl == replay.RackLocal {
				p, b = h.local.rackBit(w.bits, hb.Rack(n))
			}
			if *p&b != 0 {
				continue
			}
			if t, loc, ok := hb.PendingMap(int32(j), n, lvl); ok {
				c.fail("%v: job %d has map %d %v on node %d, its bitmap says none", hb.Now(), j, t, loc, n)
				return
			}
		}
	}
}

// checkSampling checks the lists of jobs in training against the jobs'
// samples: sampling, those with samples left to launch (reduces past
// slow-start), and sampled, those in reduce training with none left.
func (c *hfspChecker) checkSampling(v *replay.View) {
	h := c.HFSP
	for k := replay.Map; k <= replay.Reduce; k++ {
		var sampling, sampled []int32
		for _, j := range h.training[k] {
			hj := &h.jobs[j]
			switch {
			case len(hj.samples[k]) == h.sampleTarget(hj, k):
				sampled = append(sampled, j)
			case k == replay.Map || v.Job(j).ReducesEligible():
				sampling = append(sampling, j)
			}
		}
		if !slices.Equal(h.sampling[k], sampling) {
			c.fail("%v: %v sampling list %v, want %v", v.Now(), k, h.sampling[k], sampling)
		}
		if k == replay.Reduce && !slices.Equal(h.sampled, sampled) {
			c.fail("%v: sampled list %v, want %v", v.Now(), h.sampled, sampled)
		}
	}
}

// TestHFSPUpkeep replays a busy trace under HFSP and its variants (kill
// preemption, late=ps, oracle sizes, estimation errors, longer and no
// locality delay, map preemption with the public code's coupling of the
// phases), with and without node failures, checking the upkeep
// at every heartbeat, and checks that the checks change nothing.
func TestHFSPUpkeep(t *testing.T) {
	tr, err := swim.Generate(swim.Config{Profile: "fb2010", Seed: 3, Jobs: 40, Nodes: 12, MeanGap: 20})
	if err != nil {
		t.Fatal(err)
	}
	opts := []map[string]string{
		nil,
		{"preemption": "kill", "late": "ps"},
		{"oracle": "both"},
		{"alpha": "0.5", "reset-aging": "true", "locality-delay": "40"},
		{"locality-delay": "0", "samples": "2"},
		{"map-preemption": "eager", "reduce-aging": "at-arrival", "suspend-untrained": "false"},
	}
	quietSame := 0
	for ci, cfg := range replaytest.UpkeepClusters() {
		for oi, opt := range opts {
			plain := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, opt), cfg)
			c := &hfspChecker{HFSP: replaytest.Build(t, Policy.Build, opt).(*HFSP)}
			checked := replaytest.Run(t, tr, c, cfg)
			if c.err != nil {
				t.Fatalf("config %d, options %d: %v", ci, oi, c.err)
			}
			quietSame += c.verSame
			replaytest.SameJobs(t, fmt.Sprintf("config %d, options %d", ci, oi), plain, checked)
			t.Logf("config %d, options %d: mean sojourn %.1f s, %d checks", ci, oi, plain.MeanSojourn(), c.checks)
		}
	}
	if quietSame == 0 {
		t.Error("the engine never asked twice at the same quiet version: nothing checked")
	}
}
