// Package schedulers is sojourn's registry of scheduling policies: it
// lists the built-in policies (Policies, Names), finds one by name
// (Lookup), builds it with option values (New) and reads policy
// configuration files (ReadConfig).
//
// Each policy is a package of its own below this one, with a const Name, a
// Policy description (summary, options, constructor) and its tests:
//
//	fifo      Hadoop 1.x FIFO (JobQueueTaskScheduler)
//	fair      Hadoop 1.x Fair Scheduler: pools, delay scheduling, preemption
//	capacity  YARN's CapacityScheduler on slots
//	easy      Fair with EASY backfilling
//	disco     Disco's preemptive fair scheduler
//	hfsp      HFSP, the size-based scheduler, and FSP (HFSP with exact sizes)
//	oracle    the oracle baselines srpt, las and ps
//	sjf       shortest job first by true size, non-preemptive
//
// They share a small toolkit under internal/ (option settings, job orders,
// delay scheduling, victims and eviction) and never import each other.
// The pure algorithmic cores are packages of their own, with no replay
// engine in them: fairshare (the Fair Scheduler's shares), vcluster
// (HFSP's virtual cluster), fluid (fluid PS and FSP references for tests),
// pools (the Fair Scheduler's allocation file) and queues (the Capacity
// Scheduler's queue file).
//
// docs/adding-a-policy.md says how to add a policy.
package schedulers
