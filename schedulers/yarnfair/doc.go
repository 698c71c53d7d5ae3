// Package yarnfair is YARN's FairScheduler on sojourn's container model
// (replay.ContainerModel): applications in a hierarchy of weighted queues
// share the cluster's memory and vcores; each queue orders its children
// or apps by a policy, fair (memory), drf (Dominant Resource Fairness)
// or fifo.
//
// # Queues
//
// Queues come from an allocation file (option queues, see
// ParseAllocation; fair-scheduler.xml's <queue> elements with <weight>,
// <minResources>, <maxResources>, <schedulingPolicy> and
// <maxRunningApps>); without one there is a single leaf, root.default,
// of weight 1. A job runs in the leaf its pool names, with or without
// the "root." prefix. A pool that names no declared queue gets a new leaf
// of that name (dotted names make parents), weight 1 and the default
// policy, as YARN creates undeclared queues
// (yarn.scheduler.fair.allow-undeclared-pools, default true); an empty
// pool, one naming a parent queue or one that would put a queue under a
// leaf goes to root.default instead (YARN would reject the app).
//
// The policy option is the queues' default (defaultQueueSchedulingPolicy,
// default fair). fifo applies to leaves only, as in YARN: with
// policy=fifo the parents use fair; a queue set to fifo in the file must
// be a leaf. A fair parent takes fair or fifo children only
// (FairSharePolicy.isChildPolicyAllowed): drf below a fair parent is an
// error naming the file's line.
//
// # Assignment
//
// A job is an application from its submission: its ApplicationMaster's
// request is its first demand (FSAppAttempt.updateDemand), which may
// starve its queue and so trigger preemption. The policy chooses which
// waiting AM starts (replay.AMScheduler): at a node's heartbeat, before
// the tasks, the most deserving runnable app in the queues' order whose
// leaf may run one more AM under its max-am-share (option, default 0.5,
// or the queue's max-am-share in the file; FSLeafQueue.canRunAppAM):
// its AMs with one more must fit, resource by resource, in that fraction
// of the leaf's fair share rounded up, a fair share of 0 on a resource
// (the fair policy shares memory alone, so vcores are 0) standing for
// min(the cluster's unallocated, the leaf's maxResources)
// (computeMaxAMResource). The AM counts in its app's and queues' usage
// until the job ends and is never preempted. The app's demand is then
// its usage plus its pending maps, and its pending reduces once
// slow-start lets them launch (the MapReduce ApplicationMaster asks for
// them then); a queue's demand is its apps' capped by its maxResources.
// Requests are rounded up to a multiple of increment-allocation-mb and
// -vcores, at least the minimum allocation (replay.Incrementer).
//
// At a node's heartbeat, from the root down, a parent queue offers the
// node to its children that have apps asking for containers, in the
// order of its policy's comparator, and a leaf to its runnable apps
// likewise, until one takes a container (FSParentQueue and FSLeafQueue
// assignContainer):
//
//   - fair (FairSharePolicy): a schedulable whose memory usage is below
//     min(min share, demand) comes first; two such compare by usage over
//     that min share, others by usage over weight;
//   - drf (DominantResourceFairnessPolicy): shares of the cluster per
//     resource, usage over capacity over weight, compared dominant share
//     first, then the next; a schedulable whose dominant resource is below
//     its min share comes first, two such by their shares of their min
//     shares;
//   - fifo (FifoPolicy, leaves only): start time.
//
// Ties go to the earlier start (an app's submit time; queues all start
// at 0), then the name, then the job index. Apps have weight 1 and no min
// share (the trace's job priority plays no part, as in YARN where every
// app has priority 1).
//
// An app tries its reduces (MapReduce asks for them at priority 10)
// before its maps (priority 20), but asks for reduces only once none of
// its maps waits: the MapReduce ApplicationMaster ramps its reduce
// requests up slowly (yarn.app.mapreduce.am.job.reduce.rampup.limit) and
// preempts its own reduces when its maps starve, which the engine does
// not model; without that, reduces waiting for their maps' output would
// fill the cluster and the maps could never run. The first kind it has pending whose
// container fits the node's capacity and the maxResources of its queue
// and the queue's parents decides: placed if it fits what the node has
// left, else the app takes nothing on this node (reservations are not
// modelled). A container fits only if every resource fits: YARN's
// FairScheduler checks fits component-wise whatever the policy, so the
// policy does not implement replay.ResourceChooser.
//
// One container per heartbeat by default; with assignmultiple
// (yarn.scheduler.fair.assignmultiple, default false) more, while what
// is assigned fits in half the node's resources unallocated before the
// heartbeat, so one past half at most (dynamic-max-assign,
// yarn.scheduler.fair.dynamic.max.assign, default true;
// FairScheduler.shouldContinueAssigning) or, with that off, up to
// max-assign containers (yarn.scheduler.fair.max.assign, default -1: no
// limit).
//
// Queues with max-running-apps (<maxRunningApps>) hold further apps,
// their AMs not started, until a running one ends, the earliest first
// (MaxRunningAppsEnforcer).
//
// # Locality
//
// Maps follow delay scheduling by scheduling opportunities
// (FSAppAttempt.getAllowedLocalityLevel), as
// locality-threshold-node and locality-threshold-rack
// (yarn.scheduler.fair.locality.threshold.node and .rack, default -1)
// say: with either negative, any locality at once. Otherwise each time
// an app is offered a node and has a map to place counts an opportunity,
// at every node's heartbeat, full nodes included (they keep heartbeating
// while apps ask for containers);
// the app takes a node-local map always, and a rack-local or off-rack
// one only at its allowed level, which starts node-local and relaxes one
// level once more than threshold × nodes opportunities passed at it (the
// count then starts again). A map placed better than the allowed level
// brings the level back to it. With continuous-scheduling
// (yarn.scheduler.fair.continuous-scheduling-enabled) the level relaxes
// by time instead (getAllowedLocalityLevelByTime): once more than
// locality-delay-node, then locality-delay-rack, passed since it was set.
//
// # Preemption
//
// Every update-interval (yarn.scheduler.fair.update-interval-ms, 500 ms)
// from time 0, on its own clock as FairScheduler's UpdateThread, whether
// or not nodes heartbeat (the updates since the policy was last called
// run when it is next called: its state did not change in between), the
// instantaneous fair shares are recomputed
// (ComputeShares: the cluster among the active queues, those with
// runnable apps, by weight within min and max resources; memory alone
// under fair, every resource under drf; within a leaf among its apps,
// all to the first under fifo; they depend on nothing else, so an update
// recomputes them only once the runnable apps or the queues changed).
// With preemption
// (yarn.scheduler.fair.preemption, default false) a leaf is starved while its usage is
// below its min share, or below fair-share-preemption-threshold (default
// 0.5, defaultFairSharePreemptionThreshold) × its fair share, each capped
// by its demand. Every preemption-interval
// (yarn.scheduler.fair.preemptionInterval, 5 s), while the cluster's most
// used resource is allocated above preemption-utilization-threshold
// (yarn.scheduler.fair.preemption.cluster-utilization-threshold, 0.8), a
// leaf starved of its min share for more than min-share-preemption-timeout
// is owed min(min share, demand) − usage, one starved of its fair share
// for more than fair-share-preemption-timeout min(fair share, demand) −
// usage (the larger if both). Both timeouts default to never (-1), as
// YARN's defaultMinSharePreemptionTimeout and
// defaultFairSharePreemptionTimeout default to Long.MAX_VALUE: set one to
// preempt. Containers worth what is owed are then asked back, as Hadoop
// 2's FairScheduler.preemptResources does: from the root down the child
// most over its share by its parent's comparator, a leaf over its fair
// share, its app most over its own, and that app's maps before its
// reduces, the youngest first. A container is warned first and killed
// at a later check more than wait-before-kill
// (yarn.scheduler.fair.waitTimeBeforeKill, 15 s) after its warning, at
// its node's next heartbeat; containers already warned count against
// what is owed. The freed resources then go to the most deserving queue
// by the usual order.
package yarnfair
