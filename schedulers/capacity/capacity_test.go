package capacity

import (
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Tests of the CapacityScheduler (capacity.go, preempt.go,
// capacity_preempt.go), tied to the YARN scheduler description: "pick the
// most under-served queue, pick the highest priority application in that
// queue", guaranteed capacities lent elastically up to a maximum, user
// limits, and preemption that reclaims a guarantee after a timeout.

// capacityCluster is 10 nodes of one map slot (10 map slots), heartbeats
// every second (node i at i/10 s past each second), and a replica of every
// block on every node, so maps run node-local for their trace duration.
func capacityCluster() replay.Config {
	return replay.Config{Nodes: 10, NodesPerRack: 10, MapSlots: 1, ReduceSlots: 1, Replication: 10, Heartbeat: 1, Seed: 1}
}

// TestCapacityGuaranteesAndElasticity: queues a (70%) and b (30%) of 10
// map slots, each with one long job of 100 maps of 10 s.
//
//   - Contention: both jobs at 0. Each free slot goes to the queue with the
//     lower used/guaranteed ratio, so a holds 7 slots and b 3 (7/7 = 3/3).
//   - Elasticity: a's job alone from 0, b's at 50. With user-limit-factor
//     10, a borrows b's idle guarantee and holds all 10 slots; once b's job
//     arrives, b takes each slot a's tasks free until it holds its 3 (no
//     preemption: within one task length, 10 s).
//   - Maximum capacity: b's job alone with b.maximum-capacity = 50 holds
//     only 5 of the 10 slots.
//   - User limit: with YARN's default user-limit-factor 1, a single user
//     cannot exceed its queue's guarantee, so a's job alone holds 7.
func TestCapacityGuaranteesAndElasticity(t *testing.T) {
	queues := replaytest.WriteFile(t, "queues.conf", `root.a.capacity = 70
root.a.user-limit-factor = 10
root.b.capacity = 30
root.b.maximum-capacity = 50
root.b.user-limit-factor = 10
`)
	strict := replaytest.WriteFile(t, "strict.conf", "root.a.capacity = 70\nroot.b.capacity = 30\n")
	opts := map[string]string{"queues": queues}
	for _, c := range []struct {
		name             string
		opts             map[string]string
		submitA, submitB float64
		onlyB            bool
		at               float64
		wantA, wantB     int
	}{
		{name: "contention", opts: opts, at: 25, wantA: 7, wantB: 3},
		{name: "lent while b idle", opts: opts, submitB: 50, at: 45, wantA: 10, wantB: 0},
		{name: "given back to b", opts: opts, submitB: 50, at: 65, wantA: 7, wantB: 3},
		{name: "maximum capacity", opts: opts, onlyB: true, at: 25, wantA: 0, wantB: 5},
		{name: "user limit factor 1", opts: map[string]string{"queues": strict}, submitB: 1000, at: 25, wantA: 7, wantB: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			jobs := []*replaytest.JobBuilder{replaytest.Job(c.submitA).Pool("a").Maps(100, 10), replaytest.Job(c.submitB).Pool("b").Maps(100, 10)}
			if c.onlyB {
				jobs = jobs[1:]
			}
			tr := replaytest.Trace(t, jobs...)
			r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, c.opts), capacityCluster())
			gotA := replaytest.RunningAt(r, replay.Map, c.at, replaytest.InPool(tr, "a"))
			gotB := replaytest.RunningAt(r, replay.Map, c.at, replaytest.InPool(tr, "b"))
			if gotA != c.wantA || gotB != c.wantB {
				t.Errorf("at %v s: a runs %d maps, b %d; want %d and %d", c.at, gotA, gotB, c.wantA, c.wantB)
			}
		})
	}
}

// TestCapacityPreemption: queues a and b of 50% each (user-limit-factor 2,
// so one user may take the whole cluster). a's job (0 s, 100 maps of
// 100 s) fills the 10 slots; b's job (10 s, 10 maps of 5 s) arrives.
//
//   - Without preemption b waits for a's first tasks to end, at 100 s.
//   - With preemption (timeout 15 s, checks every 3 s): the check at 10 s
//     (node 0's heartbeat) finds b below min(guarantee 5, demand 10) and
//     starts its clock; the check at 25 s finds it starved for 15 s and
//     marks a's 5 youngest tasks (those launched last, on nodes 9…5 at
//     0.9…0.5 s), killed at those nodes' heartbeats at 25.5…25.9 s, where
//     b launches. b's 10 maps run in two waves of 5 s on those nodes, the
//     last 30.9–35.9 s.
func TestCapacityPreemption(t *testing.T) {
	queues := replaytest.WriteFile(t, "queues.conf", `root.a.capacity = 50
root.a.user-limit-factor = 2
root.b.capacity = 50
root.b.user-limit-factor = 2
`)
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(100, 100), replaytest.Job(10).Pool("b").Maps(10, 5))
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"queues": queues}), capacityCluster())
	if first := r.Jobs[1].FirstLaunch.Sec(); first < 100 {
		t.Errorf("without preemption b's first task launched at %v s, before a's first ended", first)
	}
	r = replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"queues": queues, "preemption": "true"}), capacityCluster())
	b := &r.Jobs[1]
	if first := b.FirstLaunch.Sec(); math.Abs(first-25.5) > 1e-9 {
		t.Errorf("b's first task launched at %v s, want 25.5", first)
	}
	if r.Jobs[0].Kills != 5 || b.Kills != 0 {
		t.Errorf("kills: a %d, b %d; want 5 and 0", r.Jobs[0].Kills, b.Kills)
	}
	if fin := b.Finish.Sec(); math.Abs(fin-35.9) > 1e-9 {
		t.Errorf("b finished at %v s, want 35.9", fin)
	}
	if got := replaytest.RunningAt(r, replay.Map, 27, replaytest.InPool(tr, "b")); got != 5 {
		t.Errorf("b runs %d maps at 27 s, want its guarantee, 5", got)
	}
}

// TestCapacityUnknownPool: a job whose pool names no leaf is refused when
// it arrives (the run stops at the next heartbeat with an error naming the
// pool and the leaves), unless a leaf called default takes it.
func TestCapacityUnknownPool(t *testing.T) {
	noDefault := replaytest.WriteFile(t, "q.conf", "root.a.capacity = 50\nroot.b.capacity = 50\n")
	withDefault := replaytest.WriteFile(t, "d.conf", "root.a.capacity = 50\nroot.default.capacity = 50\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("x").Maps(2, 1))
	_, err := replay.Run(tr, replaytest.Build(t, Policy.Build, map[string]string{"queues": noDefault}), capacityCluster())
	if err == nil || !strings.Contains(err.Error(), `pool "x", which names no leaf queue`) || !strings.Contains(err.Error(), "leaves: a, b") {
		t.Errorf("error %v, want one naming pool x and the leaves", err)
	}
	r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, map[string]string{"queues": withDefault}), capacityCluster())
	if r.Jobs[0].Finish.Sec() <= 0 {
		t.Error("the job did not run in the default leaf")
	}
}

// TestCapacityUserLimit: one queue, each job its own user (user-by=job),
// two jobs of 100 maps on 10 slots. With minimum-user-limit-percent 50
// each user may hold max(⌈10/2⌉, ⌈10 × 50%⌉) = 5 slots, so the jobs split
// the cluster; at 100% the first job (by submit time) takes all 10.
func TestCapacityUserLimit(t *testing.T) {
	half := replaytest.WriteFile(t, "half.conf", "root.default.capacity = 100\nroot.default.minimum-user-limit-percent = 50\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(100, 10), replaytest.Job(0).Maps(100, 10))
	job := func(j int32) func(int32) bool { return func(x int32) bool { return x == j } }
	for _, c := range []struct {
		opts         map[string]string
		want0, want1 int
	}{
		{map[string]string{"queues": half, "user-by": "job"}, 5, 5},
		{map[string]string{"user-by": "job"}, 10, 0},
	} {
		r := replaytest.Run(t, tr, replaytest.Build(t, Policy.Build, c.opts), capacityCluster())
		if g0, g1 := replaytest.RunningAt(r, replay.Map, 25, job(0)), replaytest.RunningAt(r, replay.Map, 25, job(1)); g0 != c.want0 || g1 != c.want1 {
			t.Errorf("%v: jobs run %d and %d maps at 25 s, want %d and %d", c.opts, g0, g1, c.want0, c.want1)
		}
	}
}

// TestCapacityOptions: bad option values are refused with the option's
// name; a bad queues file with its name and line.
func TestCapacityOptions(t *testing.T) {
	bad := replaytest.WriteFile(t, "bad.conf", "root.a.capacity = 50\n")
	for opts, want := range map[string]map[string]string{
		"capacity.user-by":                 {"user-by": "group"},
		"capacity.preemption-timeout":      {"preemption-timeout": "-1"},
		"capacity.preemption":              {"preemption": "maybe"},
		"bad.conf:1: the children of root": {"queues": bad},
	} {
		if _, err := Policy.Build(want); err == nil || !strings.Contains(err.Error(), opts) {
			t.Errorf("%v: error %v, want one containing %q", want, err, opts)
		}
	}
}
