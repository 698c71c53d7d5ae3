package hfsp

import (
	"math"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// Tests tied to the HFSP paper (Pastorelli et al.), run through the replay
// engine with its invariant checker on.

// TestPaperFigure1HFSP: Section 2.1, Figure 1. Three jobs each needing the
// whole (single-server) system: j1 at 0 for 30 s, j2 at 10 and j3 at 15 for
// 10 s. PS (the virtual cluster) completes j2 at 37.5, j3 at 42.5, j1 at 50;
// FSP serves in that order: j2 runs 10–20, j3 20–30, j1 finishes at 50.
// The cluster is one map slot and jobs are 1 s map tasks, so waiting for a
// task to end (maps are never preempted) costs nothing at whole seconds.
func TestPaperFigure1HFSP(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(30, 1), replaytest.Job(10).Maps(10, 1), replaytest.Job(15).Maps(10, 1))
	h := replaytest.Build(t, Policy.Build, map[string]string{"oracle": "both"}).(*HFSP)
	r := replaytest.Run(t, tr, h, replay.Config{Nodes: 1, MapSlots: 1, ReduceSlots: 1, Heartbeat: 1, OutOfBandHeartbeat: true})
	replaytest.CheckFinish(t, r, 50, 20, 30)
	for j, want := range []float64{50, 37.5, 42.5} {
		if got := h.VirtualFinish(int32(j), replay.Map); math.Abs(got-want) > 1e-9 {
			t.Errorf("j%d finishes at %v in the virtual (PS) cluster, want %v", j+1, got, want)
		}
	}
}

// TestPaperFigure2HFSP: Section 2.1, Figure 2. j1, j2, j3 need 100%, 55%
// and 35% of a 20-slot system (20, 11 and 7 tasks), arrive at 0, 10 and 13
// and run 30, 10 and 10 s. Virtual PS (see fluid_test.go) completes j3 at
// 23.5, j2 at 24.5, j1 at 39. With eager preemption of reduce tasks:
//
//	t=10  j2 ranks first: 11 of j1's tasks (indices 19…9, youngest first)
//	      are suspended with 20 s left; j2 runs 10–20
//	t=13  j3 ranks first: 7 more (8…2) are suspended with 17 s left; j3
//	      runs 13–23
//	t=20  j2 ends; j1 resumes 11 tasks, oldest (lowest index) first: 2…8
//	      (17 s left, end at 37) and 9…12 (20 s left, end at 40)
//	t=23  j3 ends; 13…19 resume and end at 43
//
// So j2 ends at 20, j3 at 23, j1 at 43 (the fluid ideal of the figure, 39,
// needs divisible tasks).
func TestPaperFigure2HFSP(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 0).Reduces(20, 30), replaytest.Job(10).Maps(1, 0).Reduces(11, 10), replaytest.Job(13).Maps(1, 0).Reduces(7, 10))
	h := replaytest.Build(t, Policy.Build, map[string]string{"oracle": "both", "preemption": "eager"}).(*HFSP)
	r := replaytest.Run(t, tr, h, replay.Config{Nodes: 1, MapSlots: 3, ReduceSlots: 20, MaxSuspendedPerNode: 20,
		Heartbeat: 1, OutOfBandHeartbeat: true})
	replaytest.CheckFinish(t, r, 43, 20, 23)
	if r.Jobs[0].Suspensions != 18 {
		t.Errorf("j1 suspended %d times, want 11 + 7 = 18", r.Jobs[0].Suspensions)
	}
	for j, want := range []float64{39, 24.5, 23.5} {
		if got := h.VirtualFinish(int32(j), replay.Reduce); math.Abs(got-want) > 1e-9 {
			t.Errorf("j%d finishes at %v in the virtual (PS) cluster, want %v", j+1, got, want)
		}
	}
}

// preemptionWorkload is Section 4.4's: 4 machines with 2 reduce slots; j1
// has 11 reduces of about 500 s and arrives at 2:20; j2–j5 arrive at 2:30
// with one reduce each (two for j2), all shorter than j1's.
func preemptionWorkload(t testing.TB) *traces.Trace {
	j1 := replaytest.Job(140).Maps(1, 1)
	for i := range 11 {
		j1.ReduceDurations(480 + 4*float64(i)) // "roughly 500 s"
	}
	return replaytest.Trace(t, j1,
		replaytest.Job(150).Maps(1, 1).Reduces(2, 120), replaytest.Job(150).Maps(1, 1).Reduces(1, 150),
		replaytest.Job(150).Maps(1, 1).Reduces(1, 200), replaytest.Job(150).Maps(1, 1).Reduces(1, 250))
}

func preemptionConfig() replay.Config {
	return replay.Config{Nodes: 4, NodesPerRack: 4, MapSlots: 2, ReduceSlots: 2, Heartbeat: 1}
}

// TestPaperPreemption: Section 4.4, Figure 7. Eager preemption gives the
// lowest mean sojourn, Wait a higher one; Kill re-runs the killed tasks of
// j1 (the paper: 6 of them).
func TestPaperPreemption(t *testing.T) {
	mean := map[string]float64{}
	var kill *replay.Result
	for _, mode := range []string{"eager", "wait", "kill"} {
		r := replaytest.Run(t, preemptionWorkload(t), replaytest.Build(t, Policy.Build, map[string]string{"preemption": mode}), preemptionConfig())
		mean[mode] = r.MeanSojourn()
		t.Logf("%s: mean sojourn %.1f s, j1 %.1f s, kills %d, suspensions %d", mode, mean[mode],
			r.Jobs[0].Sojourn().Sec(), r.Jobs[0].Kills, r.Jobs[0].Suspensions)
		if mode == "kill" {
			kill = r
		}
	}
	if !(mean["eager"] < mean["wait"]) {
		t.Errorf("eager mean sojourn %.1f s is not below wait's %.1f s", mean["eager"], mean["wait"])
	}
	if kill.Jobs[0].Kills == 0 || kill.LostWork <= 0 {
		t.Errorf("kill preemption killed %d tasks of j1 (lost %v); want some re-run", kill.Jobs[0].Kills, kill.LostWork)
	}
	reruns := 0
	s := &kill.Segments
	for i := 0; i < s.Len(); i++ {
		if s.Job[i] == 0 && s.Kind[i] == replay.Reduce && s.Attempt[i] > 1 && s.Outcome[i] == replay.OutcomeFinished {
			reruns++
		}
	}
	if reruns != int(kill.Jobs[0].Kills) {
		t.Errorf("%d of j1's reduces finished in a second attempt, want one per kill (%d)", reruns, kill.Jobs[0].Kills)
	}
}

// estimateProbe records HFSP's size estimates at the first heartbeat.
type estimateProbe struct {
	*HFSP
	at [][2]float64
}

func (p *estimateProbe) OnHeartbeat(hb *replay.Heartbeat) error {
	if p.at == nil {
		for j := range p.jobs {
			p.at = append(p.at, p.jobs[j].estimate)
		}
	}
	return p.HFSP.OnHeartbeat(hb)
}

// TestHFSPInitialEstimate: Section 3.2.1 — a new phase of k tasks is first
// sized ξ·k·l, l being 60 s before any task has finished; the map and
// reduce phases are separate jobs, so two jobs with 20 maps/2 reduces and
// 2 maps/20 reduces get opposite orders in the two phases.
func TestHFSPInitialEstimate(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(20, 100).Reduces(2, 100), replaytest.Job(0).Maps(2, 100).Reduces(20, 100))
	p := &estimateProbe{HFSP: replaytest.Build(t, Policy.Build, map[string]string{"xi": "2"}).(*HFSP)}
	replaytest.Run(t, tr, p, replay.Config{Nodes: 10})
	want := [][2]float64{{2 * 20 * 60, 2 * 2 * 60}, {2 * 2 * 60, 2 * 20 * 60}}
	for j := range want {
		if p.at[j] != want[j] {
			t.Errorf("job %d initial sizes %v, want %v", j, p.at[j], want[j])
		}
	}
}

// FitUniformMean on hand values: the least-squares uniform fit of evenly
// spaced samples recovers their midpoint.
func TestFitUniformMean(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{{[]float64{10, 20, 30, 40, 50}, 30}, {[]float64{7}, 7}, {[]float64{5, 5, 5}, 5}, {[]float64{50, 10, 30}, 30},
		// Equal long samples: a one-pass variance leaves a rounding residue.
		{[]float64{86400, 86400, 86400, 86400, 86400}, 86400}, {[]float64{1023.6, 1023.6, 1023.6, 1023.6, 1023.6}, 1023.6}} {
		if got := FitUniformMean(c.x); !(math.Abs(got-c.want) <= 1e-9) { // NaN fails too
			t.Errorf("FitUniformMean(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestHFSPOracleSizes: with true sizes (FSP) a phase's size is the sum of
// its tasks' run times as the engine models them — for reduces, the shuffle
// transfer (100 MB at 100 MB/s split over 2 reduce slots: 2 s) plus the
// reduce function.
func TestHFSPOracleSizes(t *testing.T) {
	j := replaytest.Job(0).Maps(3, 20).Reduces(2, 10).Shuffle(100e6, 100e6)
	p := &estimateProbe{HFSP: replaytest.Build(t, Policy.Build, map[string]string{"oracle": "both"}).(*HFSP)}
	replaytest.Run(t, replaytest.Trace(t, j), p, replay.Config{Nodes: 2, ReduceSlots: 2})
	if want := [2]float64{3 * 20, 2 * (10 + 2)}; p.at[0] != want {
		t.Fatalf("oracle sizes %v, want %v", p.at[0], want)
	}
}

// TestFSPIsHFSPWithOracle: fsp is hfsp with oracle=both, under its own
// name: same schedule on the HFSP paper's preemption workload.
func TestFSPIsHFSPWithOracle(t *testing.T) {
	f := replaytest.Run(t, preemptionWorkload(t), replaytest.Build(t, FSPPolicy.Build, nil), preemptionConfig())
	h := replaytest.Run(t, preemptionWorkload(t), replaytest.Build(t, Policy.Build, map[string]string{"oracle": "both"}), preemptionConfig())
	if f.Scheduler != "fsp" {
		t.Errorf("scheduler name %q, want fsp", f.Scheduler)
	}
	for i := range f.Jobs {
		if f.Jobs[i].Finish != h.Jobs[i].Finish {
			t.Errorf("job %d: fsp finishes at %v, hfsp oracle=both at %v", i, f.Jobs[i].Finish, h.Jobs[i].Finish)
		}
	}
	if _, err := FSPPolicy.Build(map[string]string{"late": "lifo"}); err == nil {
		t.Error("fsp accepted late=lifo")
	}
}
