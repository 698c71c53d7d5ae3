package easy

import (
	"strings"
	"testing"

	"sojourn/replay/replaytest"
)

// Tests of the two-level scheduler with EASY backfilling (easy.go,
// tasks.go), tied to Sudha Sadasivam and Anjali's paper.

// TestEasyReservationAndBackfill: one node with 4 map slots, job-share 1
// (a job asks for as many slots as it has maps, up to all 4), all jobs at
// 0 and map-only:
//
//	j0: 2 maps of 10 s → width 2, estimate 20 slot-s, run 20/2 = 10 s
//	j1: 4 maps of 10 s → width 4, run 10 s
//	j2: 1 map of 5 s   → width 1, run 5 s
//	j3: 1 map of 20 s  → width 1, run 20 s
//
// j0 is admitted (2 of 4 slots). j1, now the head, needs 4: it is given a
// reservation at the shadow time 10 (j0's estimated end), when all 4 slots
// are free and none is extra. j2 fits in the 2 free slots and ends by 5 ≤
// 10: it is backfilled. j3 fits but would end at 20 > 10 and there is no
// extra slot: it waits. So j0 runs 0–10 and j2 0–5 (one slot stays idle:
// backfilling never delays the head); at 10 j1 takes the 4 slots, 10–20;
// then j3 runs 20–40.
func TestEasyReservationAndBackfill(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2, 10), replaytest.Job(0).Maps(4, 10),
		replaytest.Job(0).Maps(1, 5), replaytest.Job(0).Maps(1, 20))
	for _, order := range []string{"sjf", "fcfs"} {
		e := replaytest.Build(t, Policy.Build, map[string]string{"job-share": "1", "backfill-order": order}).(*Easy)
		r := replaytest.Run(t, tr, e, replaytest.OneNode(4, 1))
		replaytest.CheckFinish(t, r, 10, 20, 5, 40)
		if w, run := e.Estimate(0); w != 20 || run != 10 {
			t.Errorf("j0's estimate %v slot-s, run %v s; want 20 and 10", w, run)
		}
	}
	// (Fair sharing without admission control runs j3 at once, on the slot
	// j1 would need, and finishes j1 only at 30: see TestBackfillingMatters
	// in package schedulers.)
}

// TestEasyExtraSlots: the second backfilling rule. Same node; j0 has 2
// maps of 10 s (width 2), j1 3 maps of 10 s (width 3, head, shadow 10,
// when 4 slots are free and 4 − 3 = 1 is extra), j2 one map of 30 s
// (width 1): it fits in the 2 free slots and, though it ends after the
// shadow time, uses only the extra slot, so it runs 0–30. j1 runs 10–20.
func TestEasyExtraSlots(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2, 10), replaytest.Job(0).Maps(3, 10),
		replaytest.Job(0).Maps(1, 30))
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"job-share": "1"}), replaytest.OneNode(4, 1))
	replaytest.CheckFinish(t, r, 10, 20, 30)
}

// TestEasyEstimateError: the estimate error factor lies in [1−α, 1+α],
// depends only on the seed and the job, and is 1 with α = 0.
func TestEasyEstimateError(t *testing.T) {
	e := replaytest.Build(t, Policy.Build, map[string]string{"alpha": "0.5", "error-seed": "7"}).(*Easy)
	seen := map[float64]bool{}
	for j := range int32(50) {
		f := e.errorFactor(j)
		if f < 0.5 || f > 1.5 || f != e.errorFactor(j) {
			t.Fatalf("job %d: error factor %v", j, f)
		}
		seen[f] = true
	}
	if len(seen) < 45 {
		t.Errorf("only %d distinct error factors of 50", len(seen))
	}
	if f := replaytest.Build(t, Policy.Build, nil).(*Easy).errorFactor(3); f != 1 {
		t.Errorf("alpha 0 gives factor %v", f)
	}
}

func TestEasyOptions(t *testing.T) {
	for opt, val := range map[string]string{"job-share": "0", "backfill-order": "random", "alpha": "1",
		"error-seed": "-1", "update-interval": "-1", "locality-delay": "-2",
		"will-run-window": "-30", "window-epoch": "-1", "decision-phase": "0.5"} {
		if _, err := Policy.Build(map[string]string{opt: val}); err == nil || !strings.Contains(err.Error(), "easy."+opt) {
			t.Errorf("%s = %s: error %v, want one naming easy.%s", opt, val, err, opt)
		}
	}
}

// TestEasyRigidJobs: rigid jobs (an SWF log's) ask for all their maps at
// once whatever job-share, as parallel jobs do in EASY. With the default
// job-share (0.1 of 4 slots: width 1) the jobs of
// TestEasyReservationAndBackfill, rigid, get widths 2, 4, 1 and 1 and so
// the same schedule as there: j0 0–10, j2 backfilled 0–5, j1's four maps
// together 10–20, j3 20–40. With rigid=false every job has width 1, all
// four are admitted at 0 and share the slots, and j1 cannot end at 20.
func TestEasyRigidJobs(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(2, 10).Rigid().Input(0), replaytest.Job(0).Maps(4, 10).Rigid().Input(0),
		replaytest.Job(0).Maps(1, 5).Rigid().Input(0), replaytest.Job(0).Maps(1, 20).Rigid().Input(0))
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, nil), replaytest.OneNode(4, 1))
	replaytest.CheckFinish(t, r, 10, 20, 5, 40)
	r = replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"rigid": "false"}), replaytest.OneNode(4, 1))
	if f := r.Jobs[1].Finish.Sec(); f == 20 {
		t.Errorf("with rigid=false j1 still ends at %v s, as a gang", f)
	}
}
