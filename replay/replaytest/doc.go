// Package replaytest is the test harness for scheduling policies: fluent
// builders for hand-made traces, a Run that replays with every invariant
// check on, a recording of the actions a policy takes, helpers that read
// task segments and finish times back, and a driver for scripted scenario
// files (testdata/*.txt) whose expected outputs -rewrite regenerates.
//
// A policy's test builds a trace, runs its policy and checks the outcome:
//
//	tr := replaytest.Trace(t,
//		replaytest.Job(0).Maps(30, 1),
//		replaytest.Job(10).Pool("b").Maps(10, 1).Reduces(1, 5))
//	s, log := replaytest.Record(replaytest.Build(t, Policy.Build, nil))
//	r := replaytest.Run(t, tr, s, replay.Config{Nodes: 1, MapSlots: 1, Heartbeat: 1})
//	replaytest.CheckFinish(t, r, 30, 16)
//	_ = log.Actions // every launch, suspension, resume and kill, in order
//
// The package depends on the engine, traces and the workload generator
// only, never on a policy: each policy's tests bring their own.
package replaytest
