// Package schedulers is sojourn's registry of scheduling policies: it
// lists the built-in policies (Policies, Names), finds one by name
// (Lookup), builds it with option values (New) and reads policy
// configuration files (ReadConfig).
//
// Each policy is a package of its own below this one (fifo, fair, hfsp
// and so on), with a const Name, a Policy description (summary, options,
// constructor), its tests and its scripted scenarios. The list builtin in
// registry.go is the one place that names them all; bench policies prints
// it with each policy's summary.
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
