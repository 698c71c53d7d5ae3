// Package yarnfifo is YARN's FifoScheduler on sojourn's container model
// (replay.ContainerModel), policy yarn-fifo.
//
// Applications (jobs, which the policy sees once their ApplicationMaster
// runs) are served in order of priority (VERY_HIGH first), then submit
// time, then trace order. On each NodeManager heartbeat the applications
// are taken in that order and each one is given containers on the node
// while they fit:
//
//   - maps first, the node-local ones, then the rack-local ones, then any
//     other (off-switch): the FifoScheduler has no delay scheduling, so a
//     map never waits for a better node;
//   - then reduces, once the job has reached slow-start (the engine's
//     Config.SlowStart, MapReduce's
//     mapreduce.job.reduce.slowstart.completedmaps).
//
// A job whose map container does not fit what the node has left gets no
// reduce either on that heartbeat (FifoScheduler.assignContainers stops
// at an application's first request that gets nothing: "do not assign out
// of order w.r.t priorities"), and the scan passes on to the next job: a
// smaller container further down the queue may still fit. The scan stops
// when the node has less than the minimum allocation left.
//
// Where this differs from YARN:
//
//   - YARN's FifoScheduler keeps applications in ApplicationId order
//     (submission order) and ignores their priority; here Hadoop's job
//     priority comes first, then submission (the same order when, as in
//     the paper workloads, every job has the NORMAL priority).
//   - MapReduce asks for reduces at a higher request priority (10) than
//     maps (20), and its ApplicationMaster ramps reduce requests up
//     gradually and preempts its own reduces when maps starve
//     (yarn.app.mapreduce.am.job.reduce.rampup.limit and the reducer
//     preemption delays). The engine has neither; in their place a job's
//     reduces become eligible only once none of its maps waits for a
//     container. Maps come first here, so that a map re-queued after a
//     kill is not kept waiting behind its own job's reduces.
//
// Resources: the FifoScheduler uses YARN's DefaultResourceCalculator, so
// only memory is counted (the policy implements replay.ResourceChooser):
// a node's vcores may be overcommitted (its tasks then share its CPUs
// and run slower). The policy has no options.
package yarnfifo
