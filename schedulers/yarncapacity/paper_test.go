package yarncapacity

import (
	"testing"

	"sojourn/replay"
	"sojourn/replay/replaytest"
)

// The HFSP paper's workloads (100 nodes, seed 1) in the container model
// (8 GiB and 8 vcores a node), with the invariant checker on: what the
// CapacityScheduler is for, on a realistic mix.

// containers is the paper's cluster in the container model.
func containers() replay.Config { return replay.Config{Model: replay.ContainerModel, Seed: 1} }

// classMean is the mean sojourn of the jobs of a class, in seconds.
func classMean(r *replay.Result, class string) float64 {
	var s float64
	n := 0
	for i := range r.Jobs {
		if r.Jobs[i].Class == class {
			s += r.Jobs[i].Sojourn().Sec()
			n++
		}
	}
	return s / float64(n)
}

// FB2009 with a queue per job class (pool = class): small 30%, medium
// 40%, big 30%, the larger queues allowed to grow to the whole cluster.
// In one FIFO queue the small jobs (53 of 100, at most 2 maps) wait
// behind the medium and big ones; with their own guarantee they are
// served at once: their mean sojourn falls by more than 5 times (245 s
// to 10 s when written), and the mean over all jobs too. With preemption
// on, some containers of queues above their share are killed and every
// job still finishes, none waiting more than half the run for its first
// container.
func TestPaperQueuesPerClass(t *testing.T) {
	tr := replaytest.Profile(t, "fb2009")
	byClass := *tr
	byClass.Jobs = append(byClass.Jobs[:0:0], tr.Jobs...)
	for i := range byClass.Jobs {
		byClass.Jobs[i].Pool = byClass.Jobs[i].Class
	}
	queues := "root.small.capacity = 30\n" +
		"root.medium.capacity = 40\nroot.medium.user-limit-factor = 2.5\n" +
		"root.big.capacity = 30\nroot.big.user-limit-factor = 3.4\n"
	one, _ := run(t, tr, containers(), nil)
	split, _ := run(t, &byClass, containers(), map[string]string{"queues": queues})
	pre, log := run(t, &byClass, containers(), map[string]string{"queues": queues, "preemption": "true"})
	for _, c := range []struct {
		name string
		r    *replay.Result
	}{{"one queue", one}, {"a queue per class", split}, {"with preemption", pre}} {
		t.Logf("%-18s mean sojourn %6.1f s: small %6.1f, medium %6.1f, big %6.1f",
			c.name, c.r.MeanSojourn(), classMean(c.r, "small"), classMean(c.r, "medium"), classMean(c.r, "big"))
	}
	if s1, s2 := classMean(one, "small"), classMean(split, "small"); !(s2 < s1/5) {
		t.Errorf("small jobs: mean sojourn %.1f s in their own queue, %.1f s in one queue; want 5 times less", s2, s1)
	}
	if !(split.MeanSojourn() < one.MeanSojourn()) {
		t.Errorf("mean sojourn %.1f s with a queue per class, %.1f s in one queue", split.MeanSojourn(), one.MeanSojourn())
	}
	if log.Count(replay.TaskKilled) == 0 {
		t.Error("no container preempted")
	}
	// The same under a two-level hierarchy: small and medium share
	// root.short, whose guarantee the preemption policy computes before
	// theirs.
	nested := "root.short.capacity = 60\nroot.short.small.capacity = 50\n" +
		"root.short.medium.capacity = 50\nroot.short.medium.user-limit-factor = 3\n" +
		"root.big.capacity = 40\nroot.big.user-limit-factor = 2.5\n"
	tree, treeLog := run(t, &byClass, containers(), map[string]string{"queues": nested, "preemption": "true"})
	t.Logf("%-18s mean sojourn %6.1f s: small %6.1f, medium %6.1f, big %6.1f; %d kills",
		"nested queues", tree.MeanSojourn(), classMean(tree, "small"), classMean(tree, "medium"), classMean(tree, "big"), treeLog.Count(replay.TaskKilled))
	for _, r := range []*replay.Result{pre, tree} {
		var worst replay.Time
		for _, j := range r.Jobs {
			worst = max(worst, j.FirstLaunch-j.Submit)
		}
		if worst > r.Stats.End/2 {
			t.Errorf("with preemption a job waited %v for its first container in a run of %v", worst, r.Stats.End)
		}
	}
}

// FB2010's large jobs (401 to 5000 maps) in one queue. Delay scheduling
// runs more maps node-local than taking any node at once
// (node-locality-delay and rack-locality-additional-delay 0), and the
// fair ordering policy, which serves the application using least memory
// first, gives a lower mean sojourn than FIFO order.
func TestPaperDelayAndOrdering(t *testing.T) {
	tr := replaytest.Profile(t, "fb2010")
	delay, _ := run(t, tr, containers(), nil)
	none, _ := run(t, tr, containers(), map[string]string{"node-locality-delay": "0", "rack-locality-additional-delay": "0"})
	fair, _ := run(t, tr, containers(), map[string]string{"ordering-policy": "fair"})
	t.Logf("node-local: %.1f%% with delay scheduling, %.1f%% without; mean sojourn %.1f s (fifo), %.1f s (fair)",
		100*delay.NodeLocalFraction(), 100*none.NodeLocalFraction(), delay.MeanSojourn(), fair.MeanSojourn())
	if !(delay.NodeLocalFraction() > none.NodeLocalFraction()) {
		t.Errorf("node-local fraction %.3f with delay scheduling, %.3f without", delay.NodeLocalFraction(), none.NodeLocalFraction())
	}
	if !(fair.MeanSojourn() < delay.MeanSojourn()) {
		t.Errorf("mean sojourn %.1f s in fair order, %.1f s in FIFO order", fair.MeanSojourn(), delay.MeanSojourn())
	}
}
