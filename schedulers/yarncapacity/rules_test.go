package yarncapacity

import (
	"slices"
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// The AM limits, derived from hadoop-yarn-server-resourcemanager/.../
// scheduler/capacity/LeafQueue.java:
//
//	public Resource calculateAndGetAMResourceLimitPerPartition(
//	    String nodePartition) {
//	  ...
//	    Resource queuePartitionResource = Resources.multiplyAndNormalizeUp(
//	        resourceCalculator,
//	        labelManager.getResourceByLabel(nodePartition, lastClusterResource),
//	        queueCapacities.getAbsoluteCapacity(nodePartition),
//	        minimumAllocation);
//	    ...
//	        queueCurrentLimit = queueResourceLimitsInfo.getQueueCurrentLimit();
//	    ...
//	    Resource queuePartitionUsableResource =
//	        (Resources.fitsIn(resourceCalculator,
//	          labelManager.getResourceByLabel(nodePartition, lastClusterResource),
//	          queuePartitionResource, queueCurrentLimit)) ?
//	            queueCurrentLimit : queuePartitionResource;
//	    Resource amResouceLimit = Resources.multiplyAndNormalizeUp(
//	        resourceCalculator, queuePartitionUsableResource, amResourcePercent,
//	        minimumAllocation);
//
//	private void activateApplications() {
//	  ...
//	    Resource amIfStarted = Resources.add(
//	        application.getAMResource(partitionName),
//	        queueUsage.getAMUsed(partitionName));
//	    ...
//	    if (!Resources.lessThanOrEqual(resourceCalculator, lastClusterResource,
//	        amIfStarted, amLimit)) {
//	      if (getNumActiveApplications() < 1 || (Resources.lessThanOrEqual(
//	          resourceCalculator, lastClusterResource,
//	          queueUsage.getAMUsed(partitionName), Resources.none()))) {
//	        LOG.warn("maximum-am-resource-percent is insufficient to start a"
//	            + " single application in queue, it is likely set too low."
//	            + " skipping enforcement to allow at least one application"
//	            + " to start");
//	      } else{
//	        ...
//	        continue;
//
// (activateApplications runs when an app is added and when one is
// removed), with DefaultResourceCalculator.java's
//
//	public Resource multiplyAndNormalizeUp(Resource r, double by,
//	    Resource stepFactor) {
//	  return Resources.createResource(
//	      roundUp((long) (r.getMemorySize() * by + 0.5),
//	          stepFactor.getMemorySize()));
//
// and CapacitySchedulerConfiguration's per-queue
// yarn.scheduler.capacity.<queue>.maximum-am-resource-percent, defaulting
// to yarn.scheduler.capacity.maximum-am-resource-percent (0.1).
//
// Four jobs of one 1 GiB map of 100.5 s at 0 in root.default (100%), one
// node of 12 GiB, minimum allocation 1 GiB, AMs of 1 GiB. The queue's
// current limit is the cluster (its parent passes down the root's limit,
// the cluster, less root's use plus its own), so the AM limit is
// roundUp((long)(12288 × p + 0.5), 1024):
//
//	p = 0.1 (default): (long)1229.3 = 1229 → 2048: two AMs at 0; jobs 0
//	  and 1 end at 100.5, removing them activates jobs 2 and 3, whose AMs
//	  start at the next heartbeat, 101. (Rounded down, 1228 MiB, one AM.)
//	p = 0.25 (the queue's own): 3072.5 → 3072: three AMs at 0, the fourth
//	  at 101.
//	p = 0: the limit 0 holds no AM, but a queue with no active app
//	  activates one anyway: one at a time, at 0, 101, 202, 303.
//
// The per-user AM limit, getUserAMResourceLimitPerPartition, is the
// same here (one user, user-limit-factor 1, below).
func TestAMLimitNormalisedUpPerQueue(t *testing.T) {
	var jobs []*replaytest.JobBuilder
	for range 4 {
		jobs = append(jobs, replaytest.Job(0).Maps(1, 100.5).Memory(1*gib))
	}
	tr := replaytest.Trace(t, jobs...)
	for _, c := range []struct {
		name string
		opts map[string]string
		want []float64
	}{
		{"default 0.1", map[string]string{"maximum-am-resource-percent": "0.1"}, []float64{0, 0, 101, 101}},
		{"queue's 0.25", map[string]string{"maximum-am-resource-percent": "0.1",
			"queues": "root.default.capacity = 100\nroot.default.maximum-am-resource-percent = 0.25\n"}, []float64{0, 0, 0, 101}},
		{"0", map[string]string{"maximum-am-resource-percent": "0"}, []float64{0, 101, 202, 303}},
	} {
		r, _ := run(t, tr, replaytest.OneNodeManager(12288, 12), c.opts)
		if got := amStarts(r.Jobs); !slices.Equal(got, c.want) {
			t.Errorf("%s: AMs started at %v, want %v", c.name, got, c.want)
		}
	}
}

// The per-user AM limit, LeafQueue.getUserAMResourceLimitPerPartition:
//
//	float effectiveUserLimit = Math.max(usersManager.getUserLimit() / 100.0f,
//	    1.0f / Math.max(getAbstractUsersManager().getNumActiveUsers(), 1));
//	...
//	Resource queuePartitionResource = Resources
//	    .multiplyAndNormalizeUp(resourceCalculator,
//	        labelManager.getResourceByLabel(nodePartition,
//	            lastClusterResource),
//	        queueCapacities.getAbsoluteCapacity(nodePartition),
//	        minimumAllocation);
//	Resource userAMLimit = Resources.multiplyAndNormalizeUp(
//	    resourceCalculator, queuePartitionResource,
//	    queueCapacities.getMaxAMResourcePercentage(nodePartition)
//	        * effectiveUserLimit * usersManager.getUserLimitFactor(),
//	    minimumAllocation);
//	userAMLimit =
//	    Resources.min(resourceCalculator, lastClusterResource,
//	        userAMLimit,
//	        Resources.clone(getAMResourceLimitPerPartition(nodePartition)));
//
// and in activateApplications
//
//	Resource userAmIfStarted = Resources.add(
//	    application.getAMResource(partitionName),
//	    user.getConsumedAMResources(partitionName));
//	if (!Resources.lessThanOrEqual(resourceCalculator, lastClusterResource,
//	    userAmIfStarted, userAMLimit)) {
//	  (the same exception for a queue with no active app, else continue)
//
// One node of 20 GiB; queues a and b of 50% (maximum 100%), a's
// maximum-am-resource-percent 0.2. Five jobs in a at 0, one 1 GiB map of
// 100.5 s each. a's AM limit: its guarantee 10240 fits in its current
// limit, the idle cluster's 20480, so 0.2 × 20480 = 4096. Its user AM
// limit: minimum-user-limit-percent 100 makes effectiveUserLimit 1 for
// any number of users, so 0.2 × 10240 × 1 × user-limit-factor 1 = 2048,
// below 4096.
//
//	user-by pool: the five jobs are one user: two AMs (2048), then two
//	  at 101 when jobs 0 and 1 end at 100.5, the fifth at 202.
//	user-by job: each job its own user, 1024 ≤ 2048 each; the queue's
//	  4096 holds four AMs, the fifth starts at 101.
//
// So with sojourn's default of a user per pool (a queue's jobs one
// user), the per-user limit is the one that binds: a single user may
// hold the AM share of the queue's guarantee × user-limit-factor, not of
// the capacity it borrows.
func TestUserAMLimit(t *testing.T) {
	var jobs []*replaytest.JobBuilder
	for range 5 {
		jobs = append(jobs, replaytest.Job(0).Pool("a").Maps(1, 100.5).Memory(1*gib))
	}
	tr := replaytest.Trace(t, jobs...)
	q := "root.a.capacity = 50\nroot.a.maximum-am-resource-percent = 0.2\nroot.b.capacity = 50\n"
	for _, c := range []struct {
		userBy string
		want   []float64
	}{{"pool", []float64{0, 0, 101, 101, 202}}, {"job", []float64{0, 0, 0, 0, 101}}} {
		r, _ := run(t, tr, replaytest.OneNodeManager(20480, 20), map[string]string{"queues": q, "user-by": c.userBy})
		if got := amStarts(r.Jobs); !slices.Equal(got, c.want) {
			t.Errorf("user-by %s: AMs started at %v, want %v", c.userBy, got, c.want)
		}
	}
}

// A waiting ApplicationMaster is demand for the
// ProportionalCapacityPreemptionPolicy. TempQueuePerPartition.java
// (.../monitor/capacity/) takes a leaf's pending from
//
//	pending = l.getTotalPendingResourcesConsideringUserLimit(
//	    totalPartitionResource, partition, false);
//
// which LeafQueue sums over its active (activated) apps:
//
//	for (FiCaSchedulerApp app : getApplications()) {
//	  ...
//	  Resource pending = app.getAppAttemptResourceUsage().getPending(
//	      partition);
//
// and an activated app's pending is its AM's container until the AM is
// allocated. One node of 8 GiB; queues a and b of 50% (4096), maximum
// 100%, a's user-limit-factor 2; total-preemption-per-round 0.5 (4096,
// so that a 1 GiB container may be taken).
//
// Job 0 in a at 0, 20 maps of 1000 s: its AM and 7 maps fill the node.
// Job 1 in b at 10, one map. a has an active app, b none: job 1 is
// activated (b's AM limit, 0.1 × its 4096 guarantee, 410 → 1024 MiB,
// holds it anyway), and its AM, 1024, is b's pending. The round at 10
// (the node's first heartbeat since 0: the full node was silent until
// the AM's demand woke it): ideal b from min(0, 4096) = 0, a from 4096;
// 4096 left; b, the least served, is offered its share, ⌈4096 × 0.5⌉,
// and takes its 1024 of use + pending; a takes the other 3072: ideal
// 7168. a gives back 8192 − max(min(8192 + pending, 4096), 7168) = 1024
// (within the round's 4096), natural-termination-factor 0.2 of it, 205
// MiB: one container, job 0's youngest map, map 6, marked at 10. The
// rounds at 12, ..., 24 select it again; the one at 27, the first at
// least 15 s after its mark, kills it, and the room goes to job 1's AM
// at the node's next heartbeat, 28.
//
// Without the AM as demand b would want nothing and job 1 would wait for
// job 0's maps to end at 1000.
func TestWaitingAMIsPreemptionDemand(t *testing.T) {
	tr := replaytest.Trace(t,
		replaytest.Job(0).Pool("a").Maps(20, 1000).Memory(1*gib),
		replaytest.Job(10).Pool("b").Maps(1, 10).Memory(1*gib))
	q := "root.a.capacity = 50\nroot.a.user-limit-factor = 2\nroot.b.capacity = 50\n"
	r, log := run(t, tr, replaytest.OneNodeManager(8192, 8),
		map[string]string{"queues": q, "preemption": "true", "total-preemption-per-round": "0.5"})
	if got := r.Jobs[1].AMStart.Sec(); got != 28 {
		t.Errorf("job 1's AM started at %g, want 28", got)
	}
	var kills []string
	for _, a := range log.Actions {
		if s := a.String(); a.Time.Sec() < 28 && !slices.Contains(actionsAt(log, 0), s) {
			kills = append(kills, s)
		}
	}
	if want := []string{"27 node 0 kill job 0 map 6"}; !slices.Equal(kills, want) {
		t.Errorf("actions after 0 and before 28: %v, want %v", kills, want)
	}
}

// amStarts lists the jobs' AM start times, in seconds.
func amStarts(jobs []replay.JobResult) []float64 {
	var out []float64
	for _, j := range jobs {
		out = append(out, j.AMStart.Sec())
	}
	return out
}
