package yarnfair

import (
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// Per-queue AM limits (hadoop-yarn-server-resourcemanager/.../scheduler/
// fair/FSLeafQueue.java):
//
//	private Resource computeMaxAMResource() {
//	  Resource maxResource = Resources.clone(getFairShare());
//	  if (maxResource.getMemorySize() == 0) {
//	    maxResource.setMemorySize(
//	        Math.min(scheduler.getRootQueueMetrics().getAvailableMB(),
//	                 getMaxShare().getMemorySize()));
//	  }
//	  if (maxResource.getVirtualCores() == 0) {
//	    maxResource.setVirtualCores(Math.min(
//	        scheduler.getRootQueueMetrics().getAvailableVirtualCores(),
//	        getMaxShare().getVirtualCores()));
//	  }
//	  // Round up to allow AM to run when there is only one vcore on the cluster
//	  return Resources.multiplyAndRoundUp(maxResource, maxAMShare);
//	}
//	public boolean canRunAppAM(Resource amResource) {
//	  ...
//	  Resource ifRunAMResource = Resources.add(amResourceUsage, amResource);
//	  return Resources.fitsIn(ifRunAMResource, maxAMResource);
//
// Six jobs of one 1 GiB map of 100.5 s at 0 in root.default on one node of
// 8 GiB and 8 vcores, heartbeats every second, AMs of (1024, 1),
// maxAMShare 0.5 (the default). The fair policy's fair share is memory
// alone (8192), its vcores 0: the vcores limit is ⌈0.5 × the cluster's
// unallocated vcores⌉.
//
//	t=0    AM 0: (1024,1) ≤ (4096, ⌈8/2⌉=4); AM 1: (2048,2) ≤ (4096, ⌈7/2⌉);
//	       AM 2: (3072,3) ≤ (4096, ⌈6/2⌉); AM 3: 4 > ⌈5/2⌉ = 3, refused.
//	       Maps: job 0's at 0, 1's at 1, 2's at 2 (ends 100.5, 101.5, 102.5).
//	t=101  job 0 ended: AMs 1, 2 and two maps hold 4 vcores: 3 > ⌈4/2⌉.
//	t=102  job 1 ended (2 vcores held): AM 3, 2 ≤ ⌈6/2⌉; AM 4, 3 ≤ ⌈5/2⌉;
//	       AM 5, 4 > ⌈4/2⌉. Job 3's map.
//	t=103  job 2 ended (3 held): AM 5, 3 ≤ ⌈5/2⌉.
//
// Without a limit (max-am-share -1) all six start at 0.
func TestMaxAMShare(t *testing.T) {
	var jobs []*replaytest.JobBuilder
	for range 6 {
		jobs = append(jobs, replaytest.Job(0).Maps(1, 100.5))
	}
	tr := replaytest.Trace(t, jobs...)
	for _, c := range []struct {
		share string
		want  []float64
	}{{"0.5", []float64{0, 0, 0, 102, 102, 103}}, {"-1", []float64{0, 0, 0, 0, 0, 0}}} {
		s, _ := build(t, map[string]string{"max-am-share": c.share})
		r := replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
		for i, w := range c.want {
			if got := r.Jobs[i].AMStart.Sec(); got != w {
				t.Errorf("max-am-share %s: job %d's AM started at %g, want %g", c.share, i, got, w)
			}
		}
	}
}

// A waiting ApplicationMaster is demand, and the starvation clocks run on
// their own update clock through a stretch where no node heartbeats.
// FSAppAttempt.java (.../scheduler/fair/):
//
//	public void updateDemand() {
//	  demand = Resources.createResource(0);
//	  // Demand is current consumption plus outstanding requests
//	  Resources.addTo(demand, getCurrentConsumption());
//	  // Add up outstanding resource requests
//	  ...
//	    Resources.multiplyAndAddTo(demand, r.getCapability(),
//	        r.getNumContainers());
//
// (the AM's request is the app's first), and FairScheduler.java's
// UpdateThread runs every updateInterval, heartbeats or not:
//
//	Thread.sleep(updateInterval);
//	long start = getClock().getTime();
//	update();
//
// Queues a and b of weight 1, one node of 8 GiB, heartbeats every second,
// update-interval and preemption-interval 1 s, fair-share-preemption-
// timeout 5 s, wait-before-kill 2 s, no AM limit. Job 0 in a at 0: its AM
// and seven 1000 s maps fill the node by 6; from there nothing changes
// and the node is silent. Job 1 in b, one 10 s map, at 500:
//
//	≤499   every update finds b not starved (no demand): lastFair 499.
//	500    b's app, its AM pending: demand 1024; fair shares 4096 each;
//	       usage 0 < min(0.5 × 4096, 1024): starved from the update at 500.
//	505    505 − 499 > 5: b is owed min(4096, 1024) − 0 = 1024; a's
//	       youngest map (6) is warned.
//	508    505 + 2 < 508: killed at the node's heartbeat; the room is
//	       left to the AM, which starts at the next heartbeat.
//	509    the update at 509 (before the AM starts) still owes 1024, the
//	       warned map is gone: map 5 warned. AM 1 starts.
//	512    509 + 2 < 512: map 5 killed; b, further below its share than a,
//	       takes job 1's map at 512.
//
// Had the clocks stopped with the heartbeats at 6, b would have been
// starved "since 6" at 500 and preempted at once.
func TestAMDemandPreemptsAfterQuietStretch(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "a\nb\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("a").Maps(7, 1000), replaytest.Job(500).Pool("b").Maps(1, 10))
	s, log := build(t, map[string]string{"queues": path, "preemption": "true", "update-interval": "1",
		"preemption-interval": "1", "fair-share-preemption-timeout": "5", "wait-before-kill": "2", "max-am-share": "-1"})
	r := replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
	var kills []string
	for _, a := range log.Actions {
		if a.Kind == replay.TaskKilled {
			kills = append(kills, a.String())
		}
	}
	want := []string{"508 node 0 kill job 0 map 6", "512 node 0 kill job 0 map 5"}
	if strings.Join(kills, "; ") != strings.Join(want, "; ") {
		t.Errorf("kills %q, want %q", kills, want)
	}
	if got := r.Jobs[1].AMStart.Sec(); got != 509 {
		t.Errorf("job 1's AM started at %g, want 509", got)
	}
	replaytest.CheckFinish(t, r, r.Jobs[0].Finish.Sec(), 522)
}

// Requests round up to the increment allocation, at least the minimum
// (FairScheduler normalises with incrAllocation as the step; its
// initScheduler reads "incrAllocation = this.conf.getIncrementAllocation()",
// and DefaultResourceCalculator.normalize rounds max(ask, minimum) up to
// a multiple of the step). Maps of 1500 MiB on an 8 GiB node, minimum
// allocation 1024: with increment-allocation-mb 512 each takes 1536 and
// four fit beside the AM (7168 ≥ 6144); at the default 1024 each takes
// 2048 and three fit. One container per heartbeat: at 5 four maps run,
// or three.
func TestIncrementAllocation(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(10, 10).MapMemory(1500*mib))
	for inc, want := range map[string]int{"512": 4, "1024": 3} {
		s, _ := build(t, map[string]string{"increment-allocation-mb": inc})
		r := replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 8))
		if n := replaytest.RunningAt(r, replay.Map, 5, func(int32) bool { return true }); n != want {
			t.Errorf("increment %s: %d maps run at 5, want %d", inc, n, want)
		}
	}
}

// Delay scheduling by time with continuous scheduling
// (FSAppAttempt.getAllowedLocalityLevelByTime):
//
//	long waitTime = currentTimeMs;
//	if (lastScheduledContainer.containsKey(schedulerKey)) {
//	  waitTime -= lastScheduledContainer.get(schedulerKey);
//	...
//	if (waitTime > thresholdTime) {
//	  if (allowed.equals(NodeType.NODE_LOCAL)) {
//	    ...
//	    allowedLocalityLevel.put(schedulerKey, NodeType.RACK_LOCAL);
//	    resetSchedulingOpportunities(schedulerKey, currentTimeMs);
//
// The cluster of TestLocalityThreshold, delays of 1.5 s each:
//
//	t=0   first look: node-local, since 0; no local map on node 0
//	t=0.5 map 0 on node 1; t=1 waited 1: skip; t=1.5 map 1 on node 1
//	t=2   waited 2 > 1.5: rack-local, since 2; node 0 is off-rack: skip
//	t=2.5 map 2 node-local on node 1, the level back to node-local
//	t=3   waited 1; t=3.5 1.5, not more (node 1 full)
//	t=4   waited 2: rack-local, since 4; t=4.5, 5, 5.5: up to 1.5
//	t=6   waited 2: off-rack, map 3 on node 0.
func TestLocalityByTime(t *testing.T) {
	tr := replaytest.Trace(t, replaytest.Job(0).Maps(4, 10))
	cfg := replay.Config{Model: replay.ContainerModel, Nodes: 2, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: 3072, NodeVcores: 8, AMMemoryMB: 1024, MaxAMShare: 1, Seed: 4}
	s, _ := build(t, map[string]string{"continuous-scheduling": "true", "locality-delay-node": "1.5", "locality-delay-rack": "1.5"})
	r := replaytest.Run(t, tr, s, cfg)
	m, loc, off := replay.Map, replay.NodeLocal, replay.OffRack
	replaytest.CheckSegments(t, r, []replaytest.Segment{replaytest.Seg(0, m, 0, 0.5, 1, loc, 10.5), replaytest.Seg(0, m, 1, 1.5, 1, loc, 11.5),
		replaytest.Seg(0, m, 2, 2.5, 1, loc, 12.5), replaytest.Seg(0, m, 3, 6, 0, off, 6+10*r.Config.OffRackFactor)})
}

// A leaf's AM limit follows its instantaneous fair share, which changes
// when another queue's last app leaves (FSParentQueue.recomputeShares →
// ComputeFairShares.computeShares, Hadoop 2.x,
// .../scheduler/fair/policies/ComputeFairShares.java: only the active
// queues share the parent's):
//
//	if ((sched instanceof FSQueue) && !((FSQueue) sched).isActive()) {
//	  setResourceValue(0, sched.getFairShare(), type);
//	} else {
//	  activeSchedulables.add(sched);
//	}
//
// Queues a and b of weight 1 on one node of 8 GiB and 64 vcores (the
// vcores limit never binds), AMs and maps of 1 GiB, max-am-share 0.5.
// Job 0 in b (one map of 10 s), jobs 1-4 in a (one map of 100 s each),
// all at 0.
//
//	t=0    a and b active: fair shares 4096 each; a's AM limit
//	       ⌈0.5 × 4096⌉ = 2048. AMs by the queues' order (usage over
//	       weight, ties by name): a's job 1, b's job 0, a's job 2; job
//	       3's would make a's AMs 3072 > 2048. Then one container per
//	       heartbeat: b (1024) before a (2048): job 0's map.
//	t=1,2  a's ties go to root.a: job 1's map, then job 2's (b asks for
//	       nothing more).
//	t=10   job 0's map ends and the job with it: b is inactive, and the
//	       update at 10 gives a the whole 8192, a limit of 4096: jobs 3
//	       and 4's AMs start (3072, 4096 ≤ 4096), job 3's map too.
//	t=11   job 4's map.
//
// Were the shares not recomputed when job 0 leaves, a's limit would stay
// 2048 until job 1 ends at 101.
func TestAMShareFollowsFairShare(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "a\nb\n")
	tr := replaytest.Trace(t, replaytest.Job(0).Pool("b").Maps(1, 10),
		replaytest.Job(0).Pool("a").Maps(1, 100), replaytest.Job(0).Pool("a").Maps(1, 100),
		replaytest.Job(0).Pool("a").Maps(1, 100), replaytest.Job(0).Pool("a").Maps(1, 100))
	s, _ := build(t, map[string]string{"queues": path})
	r := replaytest.Run(t, tr, s, replaytest.OneNodeManager(8192, 64))
	wantAM, wantFirst := []float64{0, 0, 0, 10, 10}, []float64{0, 1, 2, 10, 11}
	for i := range r.Jobs {
		if am, first := r.Jobs[i].AMStart.Sec(), r.Jobs[i].FirstLaunch.Sec(); am != wantAM[i] || first != wantFirst[i] {
			t.Errorf("job %d: AM at %g, first map at %g; want %g and %g", i, am, first, wantAM[i], wantFirst[i])
		}
	}
}
