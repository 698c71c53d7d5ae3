package yarncapacity

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Hand-computed micro-traces of queues, limits and calculators (see
// helpers_test.go for the common cluster).

// Mixed container sizes on an 8 GiB node, one default queue, three jobs
// at 0: job 0's maps ask for 3 GiB, job 1's for 1 GiB, job 2's for 2 GiB.
//
//   - 0: the three AMs take 3 GiB. Job 0 gets a 3 GiB map (5 → 2 GiB
//     left); offered the node again, its next map does not fit and it is
//     passed over; job 1 gets two 1 GiB maps (→ 0).
//   - 5: job 1's maps end (2 GiB): job 0 is passed over again, job 1 gets
//     its last two maps.
//   - 10: job 0's map and job 1's maps end, job 1 is done and its AM
//     leaves: 6 GiB. Job 0's second map (→ 3) and job 2's map (→ 1).
//
// Job 1 ends at 10, job 2 at 14, job 0 at 20.
func TestPackingMixedSizes(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Maps(2, 10).Memory(3*gib),
		replaytest.Job(0).Maps(4, 5).Memory(1*gib),
		replaytest.Job(0).Maps(1, 4).Memory(2*gib))
	r, log := run(t, tr, replaytest.OneNodeManager(8192, 8), nil)
	replaytest.CheckFinish(t, r, 20, 10, 14)
	wantLog(t, log, false,
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 1 map 1",
		"5 node 0 launch job 1 map 2",
		"5 node 0 launch job 1 map 3",
		"10 node 0 launch job 0 map 1",
		"10 node 0 launch job 2 map 0")
}

// Queues a (60%) and b (40%) of a 10 GiB node, user-limit-factor 10; job
// 0 in a and job 1 in b, 20 maps of 1 GiB and 10 s each, at 0. The AMs
// count in their queues' use: a 1/6 of its 6 GiB guarantee, b 1/4 of its
// 4 GiB. Each container goes to the queue with the lower used/guaranteed
// ratio, ties by name: a (2/6), b (2/4), a (3/6), a on the tie at 3/6 =
// 2/4 (4/6), b (3/4), a (5/6), b (4/4), a (6/6). The node is full: a
// holds 6 GiB, b 4, its guarantee each. Every 10 s the same: job 0 runs
// 5 maps a wave and ends at 40, job 1 3 a wave, 12 by 40.
//
//   - Elasticity: at 40 job 0 and its AM are gone; b takes 8 of the 9 GiB
//     left, its last 8 maps, far beyond its guarantee: job 1 ends at 50.
//   - b.maximum-capacity = 50: b holds at most 5 GiB, its AM and 4 maps:
//     4 maps at 40, 4 at 50, job 1 ends at 60.
//   - b.user-limit-factor = 1: b's one user's limit is b's guarantee,
//     4 GiB, and it is refused a container only once above it
//     (LeafQueue.canAssignToUser, see TestUserLimit): its AM and 4 maps,
//     4 at 40, 4 at 50, job 1 ends at 60.
func TestQueueCapacitiesAndElasticity(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(20, 10).Memory(1*gib),
		replaytest.Job(0).Pool("b").Maps(20, 10).Memory(1*gib))
	base := "root.a.capacity = 60\nroot.a.user-limit-factor = 10\nroot.b.capacity = 40\n"
	for _, c := range []struct {
		name, b string
		finish  float64
	}{
		{"elastic", "root.b.user-limit-factor = 10\n", 50},
		{"maximum capacity", "root.b.user-limit-factor = 10\nroot.b.maximum-capacity = 50\n", 60},
		{"user limit factor 1", "", 60},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, log := run(t, tr, replaytest.OneNodeManager(10240, 10), map[string]string{"queues": base + c.b})
			replaytest.CheckFinish(t, r, 40, c.finish)
			wantLog(t, log, true,
				"0 node 0 launch job 0 map 0",
				"0 node 0 launch job 1 map 0",
				"0 node 0 launch job 0 map 1",
				"0 node 0 launch job 0 map 2",
				"0 node 0 launch job 1 map 1",
				"0 node 0 launch job 0 map 3",
				"0 node 0 launch job 1 map 2",
				"0 node 0 launch job 0 map 4")
			if got := len(actionsAt(log, 40)); got != map[float64]int{50: 8, 60: 4}[c.finish] {
				t.Errorf("%d launches at 40", got)
			}
		})
	}
	// One container a heartbeat: a at 0, b at 1 (1/4 < 2/6), a at 2 (2/6
	// < 2/4).
	_, log := run(t, tr, replaytest.OneNodeManager(10240, 10), map[string]string{"queues": base, "multiple-assignments": "false"})
	wantLog(t, log, true,
		"0 node 0 launch job 0 map 0",
		"1 node 0 launch job 1 map 0",
		"2 node 0 launch job 0 map 1")
}

// A hierarchy: root.x (50%) with leaves a and b (50% of x each), root.y
// (50%), user-limit-factor 10 everywhere; one job of long 1 GiB maps in
// each leaf, at 0, on an 8 GiB node. The AMs leave x at 2/4 of its
// guarantee and y at 1/4. From the root: y (1/4 < 2/4); on the tie at
// 2/4, x, and in x, a (1/2, tie with b, by name); y (2/4 < 3/4); on the
// tie at 3/4, x and in x, b (1/2 < 2/2); y (3/4 < 4/4). The node is full:
// a and b hold 2 GiB each, y 4. At 100 the maps end and y, at 1/4 of its
// guarantee again, comes first.
func TestHierarchy(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(4, 100).Memory(1*gib),
		replaytest.Job(0).Pool("b").Maps(4, 100).Memory(1*gib),
		replaytest.Job(0).Pool("y").Maps(4, 100).Memory(1*gib))
	queues := "root.x.capacity = 50\nroot.x.a.capacity = 50\nroot.x.a.user-limit-factor = 10\n" +
		"root.x.b.capacity = 50\nroot.x.b.user-limit-factor = 10\nroot.y.capacity = 50\nroot.y.user-limit-factor = 10\n"
	_, log := run(t, tr, replaytest.OneNodeManager(8192, 8), map[string]string{"queues": queues})
	wantLog(t, log, true,
		"0 node 0 launch job 2 map 0",
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 2 map 1",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 2 map 2",
		"100 node 0 launch job 2 map 3") // the maps end: y at 1/4 again, first
}

// Two users in the default queue (their pools u1 and u2 name no leaf),
// minimum-user-limit-percent 50, on an 8 GiB node; each job has 10 maps
// of 1 GiB and 10 s, at 0. The queue's capacity is the node's 8 GiB, its
// use below it, and two users ask for containers: each user's limit is
// max(⌈8/2⌉, ⌈8 × 50 / 100⌉) = 4 GiB. YARN refuses a container only to a
// user already above the limit, the request left out
// (hadoop-yarn-server-resourcemanager/.../scheduler/capacity/LeafQueue.java,
// canAssignToUser):
//
//	// Note: We aren't considering the current request since there is a fixed
//	// overhead of the AM, but it's a > check, not a >= check, so...
//	if (Resources.greaterThan(resourceCalculator, clusterResource,
//	    user.getUsed(nodePartition), limit)) {
//	  ...
//	  return false;
//
// so a user ends one container past it: at 4 GiB (AM and 3 maps) it may
// take a 4th. At 0 job 0 (first in FIFO order) takes maps 0-3 (5 GiB);
// job 1, at 1 GiB, maps 0 and 1, and the node is full. At 10 the six end:
// job 0 takes 4 more (4-7), job 1 2 more (2, 3); at 20 job 0 its last 2
// (8, 9) and job 1 four (4-7); job 0 ends at 30 and its AM leaves, job 1
// takes its last 2 at 30 and ends at 40.
//
// With YARN's default of 100 a user may hold max(4, 8) = 8 GiB: job 0
// takes the 6 GiB left at 0 and its last 4 maps at 10, job 1 the other 2
// GiB at 10; job 0 ends at 20 and its AM leaves, job 1 runs 7 maps at 20
// and its last at 30: it ends at 40.
func TestUserLimit(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("u1").Maps(10, 10).Memory(1*gib),
		replaytest.Job(0).Pool("u2").Maps(10, 10).Memory(1*gib))
	r, log := run(t, tr, replaytest.OneNodeManager(8192, 8), map[string]string{"queues": "root.default.capacity = 100\nroot.default.minimum-user-limit-percent = 50\n"})
	replaytest.CheckFinish(t, r, 30, 40)
	wantLog(t, log, true,
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 0 map 1",
		"0 node 0 launch job 0 map 2",
		"0 node 0 launch job 0 map 3",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 1 map 1")
	if at30 := actionsAt(log, 30); len(at30) != 2 {
		t.Errorf("launches at 30: %v; want one map of each job", at30)
	}

	r, log = run(t, tr, replaytest.OneNodeManager(8192, 8), nil)
	replaytest.CheckFinish(t, r, 20, 40)
	if n0, n10, n20 := len(actionsAt(log, 0)), len(actionsAt(log, 10)), len(actionsAt(log, 20)); n0 != 6 || n10 != 6 || n20 != 7 {
		t.Errorf("launches at 0, 10, 20: %d, %d, %d; want 6, 6 (4 + 2), 7", n0, n10, n20)
	}
}

// The resource calculators on a 16 GiB node with 4 vcores: one job of 8
// maps of 1 GiB and 1 vcore, 10 s each. The default calculator counts
// memory alone: the AM and the 8 maps (9 vcores on 4) run at once,
// sharing the CPUs at 4/9 of their speed, and the job ends at
// 10 / (4/9) = 22.5. The dominant calculator counts vcores: the AM and 3
// maps a wave, at 0, 10 and 20 (2): it ends at 30.
func TestCalculatorFits(t *testing.T) {
	j := replaytest.Job(0).Maps(8, 10).Memory(1 * gib).Obj()
	j.MapCores = 1
	tr := replaytest.TraceOf(t, j)
	r, _ := run(t, tr, replaytest.OneNodeManager(16384, 4), nil)
	replaytest.CheckFinish(t, r, 22.5)
	r, _ = run(t, tr, replaytest.OneNodeManager(16384, 4), map[string]string{"resource-calculator": "dominant"})
	replaytest.CheckFinish(t, r, 30)
}

// The calculators compare queues differently. Queues a and b, 50% each
// (user-limit-factor 10), of an 8 GiB, 8-vcore node; job 0 in a has 3
// maps of 1 GiB and 3 vcores, job 1 in b 3 maps of 1 GiB and 1 vcore,
// 10 s each, at 0.
//
//   - default: memory only. The AMs take 2 GiB; a and b alternate (ties
//     by name: a, b, a, b, a, b): 3 maps each, 14 vcores allocated of 8
//     with the AMs, so every task runs at 8/14 of its speed: both jobs
//     end at 10 / (4/7) = 17.5.
//   - dominant: the AMs hold 1/8 of the memory and of the vcores each,
//     1/4 of each queue's guarantee. a (tie) gets a map: (2 GiB, 4
//     vcores), dominant share 1/2, ratio 1. b gets three maps, ratio 1/2,
//     3/4, 1: the node's 8 vcores are taken. At 10 job 1 is done; job 0's
//     last two maps (6 vcores of the 7 free) run 10–20.
func TestCalculatorQueueOrder(t *testing.T) {
	j0 := replaytest.Job(0).Pool("a").Maps(3, 10).Memory(1 * gib).Obj()
	j0.MapCores = 3
	j1 := replaytest.Job(0).Pool("b").Maps(3, 10).Memory(1 * gib).Obj()
	j1.MapCores = 1
	tr := replaytest.TraceOf(t, j0, j1)
	queues := "root.a.capacity = 50\nroot.a.user-limit-factor = 10\nroot.b.capacity = 50\nroot.b.user-limit-factor = 10\n"
	r, log := run(t, tr, replaytest.OneNodeManager(8192, 8), map[string]string{"queues": queues})
	replaytest.CheckFinish(t, r, 17.5, 17.5)
	wantLog(t, log, true,
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 0 map 1",
		"0 node 0 launch job 1 map 1",
		"0 node 0 launch job 0 map 2",
		"0 node 0 launch job 1 map 2")
	r, log = run(t, tr, replaytest.OneNodeManager(8192, 8), map[string]string{"queues": queues, "resource-calculator": "dominant"})
	replaytest.CheckFinish(t, r, 20, 10)
	wantLog(t, log, false,
		"0 node 0 launch job 0 map 0",
		"0 node 0 launch job 1 map 0",
		"0 node 0 launch job 1 map 1",
		"0 node 0 launch job 1 map 2",
		"10 node 0 launch job 0 map 1",
		"10 node 0 launch job 0 map 2")
}

// A pool that names no leaf, with no leaf called default, is refused at
// Start, naming the job; in the slot model the policy refuses to start.
func TestStartErrors(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(1, 10), replaytest.Job(1).Pool("c").Maps(1, 10))
	s := replaytest.Build(t, Policy.Build, map[string]string{"queues": replaytest.WriteFile(t, "q.conf", "root.a.capacity = 50\nroot.b.capacity = 50\n")})
	_, err := replay.Run(tr, s, replaytest.OneNodeManager(8192, 8))
	if err == nil || !strings.Contains(err.Error(), `job 1 (job1) is submitted to pool "c"`) {
		t.Errorf("err = %v; want job 1's pool refused", err)
	}
	_, err = replay.Run(tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Nodes: 1})
	if err == nil || !strings.Contains(err.Error(), "container model") {
		t.Errorf("err = %v; want a refusal naming the container model", err)
	}
}

// Options out of range are refused, naming the option.
func TestOptionErrors(t *testing.T) {
	for opt, val := range map[string]string{
		"node-locality-delay": "-1", "rack-locality-additional-delay": "-2", "maximum-assignments": "0",
		"maximum-offswitch-assignments": "0", "monitoring-interval": "0", "total-preemption-per-round": "1.5",
		"natural-termination-factor": "0", "resource-calculator": "drf", "ordering-policy": "lifo",
	} {
		if _, err := Policy.Build(map[string]string{opt: val}); err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("%s = %s: err %v", opt, val, err)
		}
	}
}
