package yarnfair

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

const mib = 1 << 20

// launches lists the log's launches as "t job kind index".
func launches(log *replaytest.Log) []string {
	var s []string
	for _, a := range log.Actions {
		if a.Kind == replay.TaskStarted {
			s = append(s, fmt.Sprintf("%g %d %s %d", a.Time.Sec(), a.Task.Job, a.Task.Kind, a.Task.Index))
		}
	}
	return s
}

func wantPrefix(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) < len(want) || strings.Join(got[:len(want)], "; ") != strings.Join(want, "; ") {
		t.Fatalf("launches %q\nwant first %q", got, want)
	}
}

func build(t *testing.T, opts map[string]string) (replay.Scheduler, *replaytest.Log) {
	return replaytest.Record(replaytest.Build(t, Policy.Build, opts))
}

// The DRF paper's example (Ghodsi et al., NSDI 2011, section 4.1): 9
// CPUs and 18 GB; user A's tasks ask <1 CPU, 4 GB>, B's <3 CPUs, 1 GB>;
// DRF gives A 3 tasks and B 2, each a dominant share of 2/3. In
// containers: one node of 18 GiB + 2 GiB and 9 + 2 vcores, the extra
// for the two ApplicationMasters (1024 MiB, 1 vcore each), both started
// at 0. Shares (memory of 20480 MiB, vcores of 11), one container per
// heartbeat:
//
//	t=0 A (1024,1) and B (1024,1) tie (1/11): A, the earlier job → (5120,2): 0.25
//	t=1 B 1/11 < 0.25 → B (2048,4): 4/11 = 0.364
//	t=2 A 0.25 → A (9216,3): 0.45
//	t=3 B 0.364 → B (3072,7): 0.636
//	t=4 A 0.45 → A (13312,4): 0.65; the vcores are all taken (4 + 7).
//
// A runs 3 tasks and B 2. The memory-based fair policy comes to the same
// counts in another order: usage A 1024 = B → A; B 2048 < 5120 → B;
// B 3072 → B; B's third task (3 vcores, 2 left) does not fit → A (9216,
// 3) at 3 and A at 4 (vcores 11).
func TestDRFPaperExample(t *testing.T) {
	a := replaytest.Job(0).Maps(5, 100).MapMemory(4096 * mib).Obj()
	b := replaytest.Job(0).Maps(5, 100).MapMemory(1024 * mib).Obj()
	b.MapCores = 3
	tr := replaytest.TraceOf(t, a, b)
	cfg := replaytest.OneNodeManager(20480, 11)
	for _, c := range []struct {
		policy string
		want   []string
	}{
		{"drf", []string{"0 0 map 0", "1 1 map 0", "2 0 map 1", "3 1 map 1", "4 0 map 2"}},
		{"fair", []string{"0 0 map 0", "1 1 map 0", "2 1 map 1", "3 0 map 1", "4 0 map 2"}},
	} {
		s, log := build(t, map[string]string{"policy": c.policy})
		r := replaytest.Run(t, tr, s, cfg)
		wantPrefix(t, launches(log), c.want...)
		inA := func(j int32) bool { return j == 0 }
		inB := func(j int32) bool { return j == 1 }
		if na, nb := replaytest.RunningAt(r, replay.Map, 50, inA), replaytest.RunningAt(r, replay.Map, 50, inB); na != 3 || nb != 2 {
			t.Errorf("%s: at 50 A runs %d tasks and B %d; want 3 and 2", c.policy, na, nb)
		}
	}
}

// Two jobs of six 10 s maps in one queue on an 8 GiB node: after the two
// ApplicationMasters six 1 GiB containers remain, one assigned per
// heartbeat. FIFO gives them all to job 0 (0..5); fair alternates, ties
// (equal usage) going to the earlier job: 0, 1, 0, 1, 0, 1.
func TestFIFOVersusFairInAQueue(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(6, 10), replaytest.Job(0).Maps(6, 10))
	s, log := build(t, map[string]string{"policy": "fifo"})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	wantPrefix(t, launches(log), "0 0 map 0", "1 0 map 1", "2 0 map 2", "3 0 map 3", "4 0 map 4", "5 0 map 5", "10 1 map 0")
	s, log = build(t, nil)
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	wantPrefix(t, launches(log), "0 0 map 0", "1 1 map 0", "2 0 map 1", "3 1 map 1", "4 0 map 2", "5 1 map 2")
}

// assignmultiple, as FairScheduler decides
// (hadoop-yarn-server-resourcemanager/.../scheduler/fair/FairScheduler.java):
//
//	Resource maxResourcesToAssign = Resources.multiply(
//	    node.getUnallocatedResource(), 0.5f);
//	...
//	private boolean shouldContinueAssigning(int containers,
//	    Resource maxResourcesToAssign, Resource assignedResource) {
//	  ...
//	  if (maxAssignDynamic) {
//	    // ... The "equal to" part can lead to allocating one extra container.
//	    return Resources.fitsIn(assignedResource, maxResourcesToAssign);
//	  } else {
//	    return maxAssign <= 0 || containers < maxAssign;
//
// At 0 the node has 6144 MiB and 6 vcores left after the two AMs, half
// (3072, 3): after 3 containers (3072, 3) still fits in it, so a 4th is
// assigned and (4096, 4) stops the loop: 4 at 0. At 1, 2048 MiB and 2
// vcores are left, half (1024, 1): (1024, 1) fits, a 2nd, (2048, 2) does
// not: 2 at 1, the last two maps. With max-assign 2 instead: 2 at each
// of 0, 1 and 2.
func TestAssignMultiple(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(6, 10), replaytest.Job(0).Maps(6, 10))
	s, log := build(t, map[string]string{"policy": "fifo", "assignmultiple": "true"})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	wantPrefix(t, launches(log), "0 0 map 0", "0 0 map 1", "0 0 map 2", "0 0 map 3", "1 0 map 4", "1 0 map 5")
	s, log = build(t, map[string]string{"policy": "fifo", "assignmultiple": "true", "dynamic-max-assign": "false", "max-assign": "2"})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	wantPrefix(t, launches(log), "0 0 map 0", "0 0 map 1", "1 0 map 2", "1 0 map 3", "2 0 map 4", "2 0 map 5")
}

// Weights: queue a of weight 2, b of 1, one job each on a 16 GiB node.
// Usage over weight, AMs included, one container per heartbeat (ties to
// the name, root.a first): a 1024/2 < b 1024 → a; then a, b, a, a, b, a,
// a, b, a, a, b, a, a: at 13 the node is full with a holding 11
// containers (AM + 10 maps, 11264/2 = 5632) and b 5 (AM + 4, 5120).
func TestWeights(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "# two queues\na weight=2\nroot.b weight=1\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(12, 100), replaytest.Job(0).Pool("b").Maps(12, 100))
	s, _ := build(t, map[string]string{"queues": path})
	r := replaytest.Run(t, tr, s, replaytest.OneNodeManager(16384, 16))
	if na, nb := replaytest.RunningAt(r, replay.Map, 50, replaytest.InPool(tr, "a")), replaytest.RunningAt(r, replay.Map, 50, replaytest.InPool(tr, "b")); na != 10 || nb != 4 {
		t.Errorf("at 50 a runs %d maps and b %d; want 10 and 4", na, nb)
	}
}

// A min share comes first: b (min 8192 MiB) is needy until its usage
// reaches min(8192, demand): it takes the containers at 0..6 (AM + 7
// maps = 8192), a the rest from 7. Without the min share the tie at 0
// goes to root.a.
func TestMinShareFirst(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "a\nb min=8192,1\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(12, 100), replaytest.Job(0).Pool("b").Maps(12, 100))
	s, log := build(t, map[string]string{"queues": path})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(16384, 16))
	wantPrefix(t, launches(log), "0 1 map 0", "1 1 map 1", "2 1 map 2", "3 1 map 3", "4 1 map 4", "5 1 map 5", "6 1 map 6", "7 0 map 0")
	s, log = build(t, nil)
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(16384, 16))
	wantPrefix(t, launches(log), "0 0 map 0", "1 1 map 0")
}

func TestComputeShares(t *testing.T) {
	for _, c := range []struct {
		name   string
		w      []float64
		lo, hi []int64
		total  int64
		want   []int64
	}{
		// 2R + R + max(R, 40960) = 102400 → R = 20480.
		{"weights and a min share", []float64{2, 1, 1}, []int64{0, 0, 40960}, []int64{unbounded, unbounded, unbounded}, 102400, []int64{40960, 20480, 40960}},
		// min(R, 10240) + R = 102400 → R = 92160.
		{"a max share", []float64{1, 1}, []int64{0, 0}, []int64{10240, unbounded}, 102400, []int64{10240, 92160}},
		// The maxima sum to less than the total: each gets its max.
		{"maxima below the total", []float64{1, 1}, []int64{0, 0}, []int64{10, 20}, 100, []int64{10, 20}},
		// Min shares above the total: each keeps its min (YARN does not scale them).
		{"min shares above the total", []float64{1, 1}, []int64{60, 60}, []int64{unbounded, unbounded}, 100, []int64{60, 60}},
	} {
		out := make([]int64, len(c.w))
		ComputeShares(c.w, c.lo, c.hi, c.total, out)
		if fmt.Sprint(out) != fmt.Sprint(c.want) {
			t.Errorf("%s: shares %v, want %v", c.name, out, c.want)
		}
	}
}

// Delay scheduling by opportunities: two nodes in two racks, one replica
// per block; with seed 4 the job's four blocks are all on node 1.
// Nodes of 3072 MiB: node 0 holds the AM (started at 0) and two maps,
// node 1 three maps. Heartbeats: node 0 at 0, 1, …, node 1 at 0.5,
// 1.5, …, full or not. Thresholds 1 and 1: a level relaxes after more
// than 1 × 2 opportunities. FSAppAttempt.assignContainer
// (hadoop-yarn-server-resourcemanager/.../scheduler/fair/FSAppAttempt.java)
// counts one at every node it is offered whose total capability could
// hold the container, whatever the node has left:
//
//	if (!reserved && !hasContainerForNode(schedulerKey, node)) {
//	  continue;
//	}
//	addSchedulingOpportunity(schedulerKey);
//
// and getAllowedLocalityLevel relaxes past the threshold:
//
//	double thresholdNum = numNodes * threshold;
//	if (schedulingOpportunities > thresholdNum) {
//	  if (allowed.equals(NodeType.NODE_LOCAL)) {
//	    ...
//	    allowedLocalityLevel.put(schedulerKey, NodeType.RACK_LOCAL);
//	    resetSchedulingOpportunities(schedulerKey);
//
//	t=0   opportunity 1, level node-local (first look): no local map on node 0
//	t=0.5 2 (not > 2): node-local map 0 on node 1
//	t=1   3 > 2: rack-local, count 0; node 0 offers only off-rack: skip
//	t=1.5 1: node-local map 1 (raises the level back to node-local)
//	t=2   2: skip; t=2.5 3 > 2: rack-local, count 0, node-local map 2: node-local
//	      again; node 1 is full
//	t=3   1: skip; t=3.5 (node 1, full) 2: map 3 is local there, no room
//	t=4   3 > 2: rack-local, 0: skip; t=4.5 1; t=5 2; t=5.5 3 > 2: off-rack, 0
//	t=6   1: map 3 off-rack on node 0.
//
// (Were full nodes silent, as they once were here, map 3 would wait to 8.)
// Without thresholds (the default) node 0 takes a map off-rack at 0.
func TestLocalityThreshold(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(4, 10))
	cfg := replay.Config{Model: replay.ContainerModel, Nodes: 2, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: 3072, NodeVcores: 8, AMMemoryMB: 1024, MaxAMShare: 1, Seed: 4}
	s, _ := build(t, map[string]string{"locality-threshold-node": "1", "locality-threshold-rack": "1"})
	r := replaytest.Run(t, tr, s, cfg)
	m, loc, off := replay.Map, replay.NodeLocal, replay.OffRack
	replaytest.CheckSegments(t, r, []replaytest.Segment{replaytest.Seg(0, m, 0, 0.5, 1, loc, 10.5), replaytest.Seg(0, m, 1, 1.5, 1, loc, 11.5),
		replaytest.Seg(0, m, 2, 2.5, 1, loc, 12.5), replaytest.Seg(0, m, 3, 6, 0, off, 6+10*r.Config.OffRackFactor)})
	s, log := build(t, nil)
	replaytest.Run(t, tr, s, cfg)
	if l := launches(log); len(l) == 0 || !strings.HasPrefix(l[0], "0 0 map") {
		t.Errorf("without thresholds: launches %q, want the first at 0", l)
	}
}

// Preemption for a min share. One 8 GiB node, heartbeats every second;
// queue a (max 7168 MiB) runs job 0 (ten 1000 s maps), b (min 4096 MiB)
// job 1 (four 100 s maps) from 10. update-interval and
// preemption-interval 1 s, min-share-preemption-timeout 5 s,
// wait-before-kill 2 s.
//
//	t=0..5 job 0's AM and six maps (7168 MiB: a's max).
//	t=10   job 1's AM starts (the node is full: 8192); b uses 1024 of
//	       min(4096, demand 5120): starved since the update at 9, when
//	       it had no demand.
//	t=15   15 − 9 > 5: b is owed 4096 − 1024 = 3072. Fair shares: R =
//	       4096 (a ≤ 7168, b ≥ 4096). a is the child most over its share
//	       (b is needy); a uses 7168 > 4096, and so does job 0: its
//	       youngest maps 5, 4, 3 are warned.
//	t=16,17 15 + 2 is not before now: still warned.
//	t=18   15 + 2 < 18: the three are killed at once (the node is the
//	       one heartbeating) and b, needy, takes a container per
//	       heartbeat: job 1's maps at 18, 19, 20.
func TestMinSharePreemption(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "a max=7168,8\nb min=4096,1\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(10, 1000), replaytest.Job(10).Pool("b").Maps(4, 100))
	s, log := build(t, map[string]string{"queues": path, "preemption": "true", "update-interval": "1",
		"preemption-interval": "1", "min-share-preemption-timeout": "5", "wait-before-kill": "2"})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	var kills []string
	for _, a := range log.Actions {
		if a.Kind == replay.TaskKilled {
			kills = append(kills, a.String())
		}
	}
	want := []string{"18 node 0 kill job 0 map 5", "18 node 0 kill job 0 map 4", "18 node 0 kill job 0 map 3"}
	if strings.Join(kills, "; ") != strings.Join(want, "; ") {
		t.Errorf("kills %q, want %q", kills, want)
	}
	l := launches(log)
	wantPrefix(t, l, "0 0 map 0", "1 0 map 1", "2 0 map 2", "3 0 map 3", "4 0 map 4", "5 0 map 5", "18 1 map 0", "19 1 map 1", "20 1 map 2")
	// Without preemption job 1 waits for job 0's maps to end at 1000.
	s, log = build(t, map[string]string{"queues": path})
	replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	if n := log.Count(replay.TaskKilled); n != 0 {
		t.Errorf("%d kills without preemption", n)
	}
}

func TestSlotModelRefused(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(1, 1))
	_, err := replay.Run(tr, replaytest.Build(t, Policy.Build, nil), replay.Config{Nodes: 1, MapSlots: 1, ReduceSlots: 1})
	if err == nil || !strings.Contains(err.Error(), "yarn-fair schedules YARN containers: use the container model (--model yarn)") {
		t.Fatalf("slot model: %v", err)
	}
}

// ComputeShares sums equal shares in one multiplication; it must give
// what the sum share by share gives (computeShares with oneByOne),
// saturation included.
func TestComputeSharesUniform(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 100, 1000} {
		for _, total := range []int64{0, 1, 5, 1023, 1536000, 800, math.MaxInt64 / 3, math.MaxInt64} {
			for _, c := range []struct {
				w      float64
				lo, hi int64
			}{{1, 0, unbounded}, {2.5, 0, unbounded}, {1, 100, unbounded}, {1, 0, 4096}, {1e300, 0, unbounded}} {
				w, lo, hi := make([]float64, n), make([]int64, n), make([]int64, n)
				for i := range w {
					w[i], lo[i], hi[i] = c.w, c.lo, c.hi
				}
				got, want := make([]int64, n), make([]int64, n)
				ComputeShares(w, lo, hi, total, got)
				computeShares(w, lo, hi, total, want, true)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("n %d, total %d, %+v: shares %v, want %v", n, total, c, got, want)
				}
			}
		}
	}
}
