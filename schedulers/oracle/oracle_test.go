package oracle

import (
	"slices"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/traces"
)

// Tests of the oracle baselines srpt, las, ps and fsp (oracle.go,
// policies.go), through the engine with its invariant checker on.

// oneNode is a single node with the given map and reduce slots, a heartbeat
// every second and out-of-band heartbeats, so that a freed slot is reused
// at once and whole-second tasks give exact times.
func oneNode(maps, reduces int) replay.Config {
	return replay.Config{Nodes: 1, NodesPerRack: 1, MapSlots: maps, ReduceSlots: reduces, Heartbeat: 1, OutOfBandHeartbeat: true}
}

func TestWaterFill(t *testing.T) {
	for _, c := range []struct {
		demand []int32
		budget int32
		want   []int32
	}{
		{[]int32{10, 10, 10}, 10, []int32{4, 3, 3}}, // level 3, one left for the first
		{[]int32{1, 10, 10}, 10, []int32{1, 5, 4}},  // 1 is capped; 9 split 5/4 in order
		{[]int32{2, 2}, 10, []int32{2, 2}},          // everyone served
		{[]int32{5, 0, 5}, 0, []int32{0, 0, 0}},     // nothing to share
		{[]int32{3, 7}, 4, []int32{2, 2}},
	} {
		out := make([]int32, len(c.demand))
		used, _ := waterFill(c.demand, c.budget, out, nil)
		var sum int32
		for _, x := range c.want {
			sum += x
		}
		if !slices.Equal(out, c.want) || used != sum {
			t.Errorf("waterFill(%v, %d) = %v (used %d), want %v", c.demand, c.budget, out, used, c.want)
		}
	}
}

// TestSRPTMicro: one map slot. j0 (0 s, 3 maps of 10 s), j1 (1 s, one map
// of 5 s), j2 (2 s, 2 maps of 2 s). Remaining processing times count whole
// unfinished tasks.
//
//	t=0   only j0: map 0 runs 0–10
//	t=10  remaining: j0 20, j1 5, j2 4 → j2 runs 10–12, 12–14
//	t=14  j1 (5) before j0 (20): 14–19
//	t=19  j0: 19–29, 29–39
//
// Sojourns 39, 18, 12 (mean 23); FIFO would give 30, 34, 37.
func TestSRPTMicro(t *testing.T) {
	tr := ffTrace(t, ffJob(0, "default", ffSame(3, 10), nil), ffJob(1, "default", ffSame(1, 5), nil),
		ffJob(2, "default", ffSame(2, 2), nil))
	r := run(t, tr, newPolicy(t, "srpt", nil), oneNode(1, 1))
	assertFinish(t, r, []float64{39, 19, 14})
}

// TestSRPTPreemptsReduces: one map and one reduce slot. j0 (0 s) has a map
// of 1 s and a reduce of 100 s; j1 (10 s) a map of 1 s and a reduce of
// 10 s.
//
//	t=0–1   j0's map; t=1 its reduce starts (slow-start: 1 map done)
//	t=10    j1 (remaining 11) ranks before j0 (100, the unfinished reduce):
//	        its map runs 10–11
//	t=11    j1's reduce wants the reduce slot: j0's reduce is suspended
//	        with 90 s left (no memory to swap), j1's runs 11–21
//	t=21    j0's reduce resumes: 21–111
//
// With preemption=wait j1's reduce waits for j0's: 101–111.
func TestSRPTPreemptsReduces(t *testing.T) {
	tr := ffTrace(t, ffJob(0, "default", []float64{1}, []float64{100}), ffJob(10, "default", []float64{1}, []float64{10}))
	r := run(t, tr, newPolicy(t, "srpt", nil), oneNode(1, 1))
	assertFinish(t, r, []float64{111, 21})
	if r.Jobs[0].Suspensions != 1 {
		t.Errorf("j0 suspended %d times, want 1", r.Jobs[0].Suspensions)
	}
	r = run(t, tr, newPolicy(t, "srpt", map[string]string{"preemption": "wait"}), oneNode(1, 1))
	assertFinish(t, r, []float64{101, 111})
	r = run(t, tr, newPolicy(t, "srpt", map[string]string{"preemption": "kill"}), oneNode(1, 1))
	// Killed at 11 after 10 s of work, j0's reduce re-runs 21–121.
	assertFinish(t, r, []float64{121, 21})
}

// TestSRPTMapPreemption: maps wait by default; with map-preemption=eager
// a long map is suspended for a shorter job. One map slot: j0 (0 s) one
// map of 100 s, j1 (10 s) one map of 10 s. Waiting: j1 runs 100–110.
// Eager: j0's map is suspended at 10 with 90 s left, j1 runs 10–20, j0
// resumes 20–110.
func TestSRPTMapPreemption(t *testing.T) {
	tr := ffTrace(t, ffJob(0, "default", []float64{100}, nil), ffJob(10, "default", []float64{10}, nil))
	assertFinish(t, run(t, tr, newPolicy(t, "srpt", nil), oneNode(1, 1)), []float64{100, 110})
	r := run(t, tr, newPolicy(t, "srpt", map[string]string{"map-preemption": "eager"}), oneNode(1, 1))
	assertFinish(t, r, []float64{110, 20})
	if r.Jobs[0].Suspensions != 1 {
		t.Errorf("j0 suspended %d times, want 1", r.Jobs[0].Suspensions)
	}
}

func TestOracleOptions(t *testing.T) {
	for _, c := range []struct{ policy, opt, val string }{
		{"srpt", "preemption", "sometimes"}, {"srpt", "map-preemption", "suspend"}, {"srpt", "locality-delay", "-3"},
		{"las", "quantum", "0"}, {"las", "factor", "1"}, {"ps", "preemption", "x"},
	} {
		if _, err := New(c.policy, map[string]string{c.opt: c.val}); err == nil || !strings.Contains(err.Error(), c.policy+"."+c.opt) {
			t.Errorf("%s.%s = %s: error %v", c.policy, c.opt, c.val, err)
		}
	}
	if _, err := New("ps", map[string]string{"locality-delay": "0"}); err == nil {
		t.Error("ps accepted a locality delay")
	}
}

// TestLASMicro: one map slot, quantum 10, factor 2 (levels: below 10
// slot-s, 10–20, 20–40, 40–80, …). j0 (0 s) has 10 maps of 10 s, j1 (25 s)
// 2 maps of 10 s.
//
//	t=0–30  j0 alone: maps 0, 1, 2 (attained 30 at t=30: level 2)
//	t=30    j1 (0, level 0) first: 30–40 (attained 10: level 1 < 2)
//	t=40    j1 again: 40–50, done
//	t=50    j0's 7 maps: 50–120
func TestLASMicro(t *testing.T) {
	tr := ffTrace(t, ffJob(0, "default", ffSame(10, 10), nil), ffJob(25, "default", ffSame(2, 10), nil))
	r := run(t, tr, newPolicy(t, "las", map[string]string{"quantum": "10", "factor": "2"}), oneNode(1, 1))
	assertFinish(t, r, []float64{120, 50})
	for _, c := range []struct{ a, level, end float64 }{{0, 0, 10}, {9.9, 0, 10}, {10, 1, 20}, {39.9, 2, 40}, {40, 3, 80}} {
		if l, e := lasLevel(c.a, 10, 2); l != c.level || e != c.end {
			t.Errorf("lasLevel(%v, 10, 2) = %v, %v; want %v, %v", c.a, l, e, c.level, c.end)
		}
	}
}

// TestPSMicro: two map slots; j0 (4 maps of 10 s) and j1 (2 maps of 10 s)
// both at 0. Equal shares: one slot each 0–10 and 10–20; j1 is then done
// and j0 runs its last two maps on both slots 20–30. FIFO would finish j0
// at 20 and j1 at 30.
func TestPSMicro(t *testing.T) {
	tr := ffTrace(t, ffJob(0, "default", ffSame(4, 10), nil), ffJob(0, "default", ffSame(2, 10), nil))
	r := run(t, tr, newPolicy(t, "ps", nil), oneNode(2, 1))
	assertFinish(t, r, []float64{30, 20})
}

// TestFSPIsHFSPWithOracle: fsp is hfsp with oracle=both, under its own
// name: same schedule on the HFSP paper's preemption workload.
func TestFSPIsHFSPWithOracle(t *testing.T) {
	f := run(t, preemptionWorkload(t), newPolicy(t, "fsp", nil), preemptionConfig())
	h := run(t, preemptionWorkload(t), newPolicy(t, "hfsp", map[string]string{"oracle": "both"}), preemptionConfig())
	if f.Scheduler != "fsp" {
		t.Errorf("scheduler name %q, want fsp", f.Scheduler)
	}
	for i := range f.Jobs {
		if f.Jobs[i].Finish != h.Jobs[i].Finish {
			t.Errorf("job %d: fsp finishes at %v, hfsp oracle=both at %v", i, f.Jobs[i].Finish, h.Jobs[i].Finish)
		}
	}
	if _, err := New("fsp", map[string]string{"late": "lifo"}); err == nil {
		t.Error("fsp accepted late=lifo")
	}
}

type srptCase struct {
	name string
	tr   *traces.Trace
	cfg  replay.Config
}

func srptCases(t *testing.T) []srptCase {
	return []srptCase{
		{"micro", ffTrace(t, ffJob(0, "default", ffSame(3, 10), nil), ffJob(1, "default", ffSame(1, 5), nil),
			ffJob(2, "default", ffSame(2, 2), nil)), oneNode(1, 1)},
		{"hfsp-figure-1", buildTrace(t, uniformJob(0, 30, 1, 0, 0), uniformJob(10, 10, 1, 0, 0), uniformJob(15, 10, 1, 0, 0)),
			oneNode(1, 1)},
		{"hfsp-preemption", preemptionWorkload(t), preemptionConfig()},
		{"mixed", ffTrace(t, ffJob(0, "default", ffSame(20, 10), ffSame(2, 20)), ffJob(5, "default", ffSame(2, 5), ffSame(1, 5)),
			ffJob(8, "default", ffSame(6, 10), nil), ffJob(30, "default", ffSame(1, 3), nil)),
			replay.Config{Nodes: 2, NodesPerRack: 2, MapSlots: 2, ReduceSlots: 1, Replication: 2, Heartbeat: 1}},
	}
}

// TestSRPTMeanAtMostOthers: on small hand traces SRPT's mean sojourn is at
// or below FIFO's, FAIR's and HFSP's. (SRPT minimises the mean on one
// server; on slots, with whole tasks and maps that are not preempted, it
// is a heuristic, hence the check.)
func TestSRPTMeanAtMostOthers(t *testing.T) {
	for _, c := range srptCases(t) {
		mean := map[string]float64{}
		for _, p := range []string{"srpt", "fifo", "fair", "hfsp"} {
			mean[p] = run(t, c.tr, newPolicy(t, p, nil), c.cfg).MeanSojourn()
		}
		t.Logf("%s: mean sojourn srpt %.2f s, fifo %.2f s, fair %.2f s, hfsp %.2f s", c.name,
			mean["srpt"], mean["fifo"], mean["fair"], mean["hfsp"])
		for _, p := range []string{"fifo", "fair", "hfsp"} {
			if mean["srpt"] > mean[p]+1e-9 {
				t.Errorf("%s: srpt mean %.2f s above %s's %.2f s", c.name, mean["srpt"], p, mean[p])
			}
		}
	}
}

// TestSRPTOnPaperProfiles compares SRPT's mean sojourn with every other
// policy's on both paper workloads (100 nodes, seed 1). SRPT knows the
// true sizes, so it should be at or below every policy that does not; the
// oracles las, ps and fsp are only reported.
func TestSRPTOnPaperProfiles(t *testing.T) {
	if testing.Short() {
		t.Skip("replays both profiles under every policy")
	}
	oracles := map[string]bool{"srpt": true, "las": true, "ps": true, "fsp": true}
	for _, prof := range []string{"fb2009", "fb2010"} {
		tr := profileTrace(t, prof)
		srpt := run(t, tr, newPolicy(t, "srpt", nil), replay.Config{Seed: 1}).MeanSojourn()
		for _, name := range Names() {
			if name == "srpt" || name == "las" {
				continue // las is slow on fb2010 and reported by TestPoliciesOnPaperProfiles
			}
			m := run(t, tr, newPolicy(t, name, nil), replay.Config{Seed: 1}).MeanSojourn()
			t.Logf("%s: srpt %.1f s, %s %.1f s (srpt/%s %.2f)", prof, srpt, name, m, name, srpt/m)
			if !oracles[name] && srpt > m {
				t.Errorf("%s: srpt mean sojourn %.1f s above %s's %.1f s", prof, srpt, name, m)
			}
		}
	}
}
