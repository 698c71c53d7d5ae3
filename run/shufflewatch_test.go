package run

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Reduce-slot hoarding on one node: job a's two reduces take both reduce
// slots at slow-start and wait for its ten maps; job b, arriving later,
// finishes its one map and its reduce waits for a slot. The watch measures
// the stretch from b's maps being done to a's, exactly, and nothing when
// the reduces only start with the maps done (slow-start 1).
func TestShuffleWatchMeasuresHoarding(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(10, 100).Reduces(2, 50),
		replaytest.Job(150).Maps(1, 10).Reduces(1, 10))
	for _, c := range []struct {
		slowstart float64
		hoards    bool
	}{{0.05, true}, {1, false}} {
		cfg := replaytest.OneNode(2, 2)
		cfg.SlowStart = c.slowstart
		o, err := Replay(&Cell{Trace: tr, Policy: "fair", Cluster: cfg}, "", Options{WatchShuffle: true})
		if err != nil {
			t.Fatal(err)
		}
		w, a, b := o.Shuffle, o.Result.Jobs[0], o.Result.Jobs[1]
		if w.ReduceSlots != 2 {
			t.Errorf("reduce slots %d, want 2", w.ReduceSlots)
		}
		if !c.hoards {
			if w.Total != 0 {
				t.Errorf("slow-start 1: %v s of hoarding, want none", w.Total.Sec())
			}
			continue
		}
		if b.MapsDone >= a.MapsDone || b.Finish <= a.MapsDone {
			t.Fatalf("the scenario does not hoard: a's maps done at %v s, b's at %v s, b ends at %v s",
				a.MapsDone.Sec(), b.MapsDone.Sec(), b.Finish.Sec())
		}
		if w.LongestFrom != b.MapsDone || w.Longest != a.MapsDone-b.MapsDone || w.Total != w.Longest {
			t.Errorf("hoarding from %v s for %v s (%v s in all), want from %v s (b's maps done) to %v s (a's)",
				w.LongestFrom.Sec(), w.Longest.Sec(), w.Total.Sec(), b.MapsDone.Sec(), a.MapsDone.Sec())
		}
	}
}

// Watching changes nothing in the run.
func TestShuffleWatchChangesNothing(t *testing.T) {
	tr := testTrace(t)
	for _, p := range []string{"fair", "hfsp"} {
		c := &Cell{Trace: tr, Policy: p, Cluster: replay.Config{Nodes: 10, Seed: 2}}
		plain, err := Replay(c, "", Options{})
		if err != nil {
			t.Fatal(err)
		}
		watched, err := Replay(c, "", Options{WatchShuffle: true})
		if err != nil {
			t.Fatal(err)
		}
		replaytest.SameJobs(t, p, plain.Result, watched.Result)
	}
}
