package oracle

import (
	"slices"
	"strings"
	"testing"

	"sojourn/replay/replaytest"
)

// Tests of the oracle baselines srpt, las, ps and fsp (oracle.go,
// policies.go), through the engine with its invariant checker on.

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
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(3, 10), replaytest.Job(1).Maps(1, 5),
		replaytest.Job(2).Maps(2, 2))
	r := replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, nil), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 39, 19, 14)
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
	tr := replaytest.Trace(t, replaytest.Job(0).MapDurations(1).ReduceDurations(100), replaytest.Job(10).MapDurations(1).ReduceDurations(10))
	r := replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, nil), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 111, 21)
	if r.Jobs[0].Suspensions != 1 {
		t.Errorf("j0 suspended %d times, want 1", r.Jobs[0].Suspensions)
	}
	r = replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, map[string]string{"preemption": "wait"}), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 101, 111)
	r = replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, map[string]string{"preemption": "kill"}), replaytest.OneNode(1, 1))
	// Killed at 11 after 10 s of work, j0's reduce re-runs 21–121.
	replaytest.CheckFinish(t, r, 121, 21)
}

// TestSRPTMapPreemption: maps wait by default; with map-preemption=eager
// a long map is suspended for a shorter job. One map slot: j0 (0 s) one
// map of 100 s, j1 (10 s) one map of 10 s. Waiting: j1 runs 100–110.
// Eager: j0's map is suspended at 10 with 90 s left, j1 runs 10–20, j0
// resumes 20–110.
func TestSRPTMapPreemption(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).MapDurations(100), replaytest.Job(10).MapDurations(10))
	replaytest.CheckFinish(t, replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, nil), replaytest.OneNode(1, 1)), 100, 110)
	r := replaytest.Run(t, tr, replaytest.Build(t, SRPT.Build, map[string]string{"map-preemption": "eager"}), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 110, 20)
	if r.Jobs[0].Suspensions != 1 {
		t.Errorf("j0 suspended %d times, want 1", r.Jobs[0].Suspensions)
	}
}

func TestOracleOptions(t *testing.T) {
	builders := map[string]replaytest.Builder{"srpt": SRPT.Build, "las": LAS.Build, "ps": PS.Build}
	for _, c := range []struct{ policy, opt, val string }{
		{"srpt", "preemption", "sometimes"}, {"srpt", "map-preemption", "suspend"}, {"srpt", "locality-delay", "-3"},
		{"las", "quantum", "0"}, {"las", "factor", "1"}, {"ps", "preemption", "x"},
		{"ps", "quantum", "-1"}, {"ps", "quantum", "+Inf"},
	} {
		if _, err := builders[c.policy](map[string]string{c.opt: c.val}); err == nil || !strings.Contains(err.Error(), c.policy+"."+c.opt) {
			t.Errorf("%s.%s = %s: error %v", c.policy, c.opt, c.val, err)
		}
	}
	for _, kill := range []string{"preemption", "map-preemption"} {
		_, err := PS.Build(map[string]string{"quantum": "1", kill: "kill"})
		if err == nil || !strings.Contains(err.Error(), "ps.quantum: 1 with kill preemption") {
			t.Errorf("ps.quantum 1, %s kill: error %v", kill, err)
		}
	}
	if _, err := PS.Build(map[string]string{"locality-delay": "0"}); err == nil {
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
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(10, 10), replaytest.Job(25).Maps(2, 10))
	r := replaytest.Run(t, tr, replaytest.Build(t, LAS.Build, map[string]string{"quantum": "10", "factor": "2"}), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, r, 120, 50)
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
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(4, 10), replaytest.Job(0).Maps(2, 10))
	r := replaytest.Run(t, tr, replaytest.Build(t, PS.Build, nil), replaytest.OneNode(2, 1))
	replaytest.CheckFinish(t, r, 30, 20)
}

// TestPSQuantumMicro: one map slot, heartbeats every second, quantum 1 s,
// maps preempted (free swaps). j0 (0 s) has one map of 10 s, j1 (1 s) one
// of 3 s. Round robin by rounds:
//
//	t=0–1   j0 alone, round 0; at 1 its first quantum ends: round 1
//	t=1     j1 arrives and joins the last round, 1, behind j0 (submitted first)
//	t=1–2   j0 (round 1 → 2); 2–3 j1 (1 → 2); 3–4 j0; 4–5 j1; 5–6 j0; 6–7 j1, done
//	t=7–13  j0 alone (4 s done, 6 to go)
//
// which is exactly processor sharing here (j1 shares from 1 at rate 1/2
// and ends at 7; j0 then has 6 s left). Without the quantum ps shares
// whole tasks: FIFO, j0 at 10 and j1 at 13.
func TestPSQuantumMicro(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 10), replaytest.Job(1).Maps(1, 3))
	sliced := replaytest.Run(t, tr, replaytest.Build(t, PS.Build, map[string]string{"quantum": "1", "map-preemption": "eager"}), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, sliced, 13, 7)
	if s := sliced.Jobs[0].Suspensions; s != 3 {
		t.Errorf("j0 suspended %d times, want 3 (at 2, 4 and 6)", s)
	}
	whole := replaytest.Run(t, tr, replaytest.Build(t, PS.Build, map[string]string{"map-preemption": "eager"}), replaytest.OneNode(1, 1))
	replaytest.CheckFinish(t, whole, 10, 13)
	for _, c := range []struct{ a, level, end float64 }{{0, 0, 0.25}, {0.2, 0, 0.25}, {0.25, 1, 0.5}, {0.75, 3, 1}, {1.9, 7, 2}} {
		if l, e := psLevel(c.a, 0.25); l != c.level || e != c.end {
			t.Errorf("psLevel(%v, 0.25) = %v, %v; want %v, %v", c.a, l, e, c.level, c.end)
		}
	}
	// With a quantum not exact in binary, the level still brackets the
	// service as computed: level·q <= a < (level+1)·q = end.
	for i := range 1000 {
		a := float64(i) * 0.01
		if l, e := psLevel(a, 0.1); !(l*0.1 <= a && a < e && e == (l+1)*0.1) {
			t.Fatalf("psLevel(%v, 0.1) = %v, %v: does not bracket it", a, l, e)
		}
	}
}
