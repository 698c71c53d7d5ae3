// Package replay is a deterministic discrete-event model of a Hadoop 1.x
// slot cluster: TaskTrackers with map and reduce slots, staggered
// heartbeats, HDFS block placement and locality, reduce slow-start and
// shuffle, and the preemption primitives kill and suspend/resume.
//
// The engine is synchronous and single-threaded. It never reads the wall
// clock: simulated time is an integer count of microseconds (Time), so runs
// are exactly reproducible and hand-computed timings hold to the
// microsecond. Randomness (replica placement, node speeds, failures) comes
// only from Config.Seed through per-job and per-node PCG streams.
//
// A scheduling policy implements Scheduler. The engine tells it what
// happened (Event) and, on each heartbeat of a node with work to do, lets it
// act on that node through Heartbeat: Launch, Kill, Suspend and Resume.
// Every action is validated; an invalid one aborts the run with an error
// naming the policy, the simulated time and the task.
//
// A run holds the jobs in flight, not the whole trace: a job's tasks are
// made when it arrives and let go when it finishes, and with NewFromSource
// (a traces.Reader) its trace data is read as the job before it arrives.
// Memory thus grows with the number of jobs, at a few hundred bytes each,
// and with the tasks of the jobs running.
//
// Vocabulary: a task is one map or reduce of a job; an attempt is one
// launch of a task, ended by finishing, a kill or a node failure; a segment
// is one uninterrupted stretch of an attempt on a slot (suspension splits
// an attempt into segments). Busy slot time is the sum of segment lengths.
package replay
