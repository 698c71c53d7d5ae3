package replay

import (
	"crypto/sha256"
	"fmt"
	"math"
	"testing"

	"sojourn/traces"
)

// cpuWatch counts memory alone, so that vcores may be overcommitted, and
// checks every node's CPU list at every event against the engine's own
// records: the same tasks as the node's running list in the same order,
// waiting as their records say, ends not passed; the clock not ahead of
// now, the swapping tasks counted and not yet at their swap-in's end as
// the clock was last set; the node's rate as its allocation gives it;
// its cached first due task, if known, the one a scan finds; and the
// node's queued event no later than its first due task.
type cpuWatch struct {
	Scheduler
	t *testing.T
	// shared counts the events seen while some node's CPUs were shared.
	shared int
}

func (cpuWatch) Counts(res string) bool { return res == ResMemoryMB }

func (s *cpuWatch) OnEvent(ev Event, v *View) {
	e := v.e
	shared := false
	for ni := range e.nodes {
		n, c := &e.nodes[ni], &e.cpus[ni]
		swapping := 0
		if len(c.tasks) != len(n.running) {
			s.t.Fatalf("at %v node %d lists %d tasks for %d running", e.now, ni, len(c.tasks), len(n.running))
		}
		for i := range c.tasks {
			x := &c.tasks[i]
			tk := e.taskOf(x.ref)
			switch {
			case x.ref != n.running[i]:
				s.t.Fatalf("at %v node %d lists %v where it runs %v", e.now, ni, x.ref, n.running[i])
			case tk.state != running || tk.node() != int32(ni) || x.waiting != tk.waiting:
				s.t.Fatalf("at %v node %d lists %v (waiting %v), not as its record says", e.now, ni, x.ref, x.waiting)
			case x.waiting != math.IsInf(x.vend, 1):
				s.t.Fatalf("at %v node %d: %v waiting %v with vend %v", e.now, ni, x.ref, x.waiting, x.vend)
			case !x.waiting && c.due(x) < e.now:
				s.t.Fatalf("at %v node %d: %v ends at %v", e.now, ni, x.ref, c.due(x))
			case x.swapping && (x.waiting || c.swapEnd(x.ref) <= c.at):
				s.t.Fatalf("at %v node %d: %v swapping until %v, waiting %v, clock set at %v", e.now, ni, x.ref, c.swapEnd(x.ref), x.waiting, c.at)
			}
			if x.swapping {
				swapping++
			}
		}
		if c.at > e.now || len(c.swaps) != swapping {
			s.t.Fatalf("at %v node %d: clock set at %v, %d swap-ins kept, %d tasks swapping", e.now, ni, c.at, len(c.swaps), swapping)
		}
		rate := 1.0
		if used := n.capa[1] - n.avail[1]; used > n.capa[1] {
			rate = float64(n.capa[1]) / float64(used)
			shared = true
		}
		if c.rate != rate {
			s.t.Fatalf("at %v node %d runs at %v, want %v", e.now, ni, c.rate, rate)
		}
		if c.first >= 0 && int(c.first)-1 != c.scan() {
			s.t.Fatalf("at %v node %d caches task %d as due first, a scan finds %d", e.now, ni, c.first-1, c.scan())
		}
		if p := c.next(); p >= 0 && !c.queuedBy(c.due(&c.tasks[p])) {
			s.t.Fatalf("at %v node %d's event is not queued by its first due task (%v at %v)", e.now, ni, c.tasks[p].ref, c.due(&c.tasks[p]))
		}
	}
	if shared {
		s.shared++
	}
	s.Scheduler.OnEvent(ev, v)
}

// sharedTrace is a backlog of jobs of whole-second tasks, many of equal
// length, so that task ends often fall at the same time, on nodes and
// across them.
func sharedTrace(t *testing.T) *traces.Trace {
	var specs []traces.Job
	for i := range 50 {
		maps := make([]float64, 2+i%7)
		for m := range maps {
			maps[m] = float64(5 * (1 + (i+m)%4))
		}
		j := jobSpec(float64(i*3), maps, []float64{10, 15, 5}[:i%4], 1<<20, 1024*mib)
		if i%5 == 0 {
			j.MapMemoryBytes, j.MapCores = 2048*mib, 2
		}
		specs = append(specs, j)
	}
	return mkTrace(t, specs...)
}

// TestSharedCPUsReplay replays a backlog on nodes whose vcores are
// overcommitted, with the node lists checked at every event (cpuWatch),
// and pins the replay's digest: jobs, task segments and occupancy. Tasks
// ending at the same time on a node end in the order of their clock
// readings, then of their starts; each after the node's event is queued
// again behind what was queued meanwhile.
func TestSharedCPUsReplay(t *testing.T) {
	tr := sharedTrace(t)
	for _, c := range []struct {
		cfg    Config
		digest string
	}{
		{Config{Model: ContainerModel, Nodes: 3, NodesPerRack: 3, Heartbeat: 1, NodeMemoryMB: 8192, NodeVcores: 3,
			AMMemoryMB: 1024, MaxAMShare: 0.5, Seed: 1}, "51c39dcda5f519c4e5ff249e92d0cd4ae7ffb8b82b035cfae41503142e0324b9"},
		{Config{Model: ContainerModel, Nodes: 4, NodesPerRack: 2, Heartbeat: 2, NodeMemoryMB: 6144, NodeVcores: 2,
			AMMemoryMB: 1024, MaxAMShare: 0.5, Seed: 2, OutOfBandHeartbeat: true, SlowStart: 0.5}, "74e8c0eed3ba5b7767e47ca7f47d27d37b9a733930711ce89b0cda7db5d4dc59"},
	} {
		w := &cpuWatch{Scheduler: &FIFO{}, t: t}
		// The engine's invariant checker is on; mustRun's slot count does
		// not apply to containers.
		c.cfg.RecordTasks, c.cfg.RecordOccupancy = true, true
		r, err := Run(tr, w, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if w.shared == 0 {
			t.Fatal("no node's CPUs were ever shared: the test needs overcommitted vcores")
		}
		d := fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%v %v %v %v", r.Jobs, r.Segments, r.Occupancy, r.ResourceSeconds)))
		if d != c.digest {
			t.Errorf("seed %d: digest %s, want %s", c.cfg.Seed, d, c.digest)
		}
	}
}

// TestCPUFirstFollowsRemovals removes tasks from a node's CPU list as a
// task end does (the last moves into the hole) and checks the cached
// first due task: it follows the task moved, and is found again when it
// is the one removed.
func TestCPUFirstFollowsRemovals(t *testing.T) {
	e := &Engine{cpus: make([]nodeCPU, 1)}
	c := &e.cpus[0]
	c.rate = 1
	c.tasks = []cpuTask{
		{ref: TaskRef{Index: 0}, vend: 10, seq: 1},
		{ref: TaskRef{Index: 1}, vend: 5, seq: 2},
		{ref: TaskRef{Index: 2}, vend: 3, seq: 3},
		waitingTask(TaskRef{Index: 3}),
	}
	c.first = -1 // unknown
	if p := c.next(); p != 2 {
		t.Fatalf("first due task at %d, want 2", p)
	}
	e.cpuRemoveAt(0, 1) // the waiting task moves into index 1
	if c.first != 3 || c.next() != 2 {
		t.Fatalf("after removing index 1: cached %d, next %d; want 3 and 2", c.first, c.next())
	}
	e.cpuRemoveAt(0, 0) // index 2, due first, moves into index 0
	if c.first != 1 || c.tasks[0].ref.Index != 2 {
		t.Fatalf("after removing index 0: cached %d, task 0 is %v; want 1 and task 2", c.first, c.tasks[0].ref)
	}
	e.cpuRemoveAt(0, 0) // the first due task itself: only the waiting one is left
	if c.first != -1 {
		t.Fatalf("after removing the first due task: cached %d, want -1 (unknown)", c.first)
	}
	if p := c.next(); p != -1 || c.first != 0 {
		t.Fatalf("with only a waiting task: next %d, cached %d; want -1 and 0", p, c.first)
	}
}

// TestCPUClockSwapIn follows a node's CPU clock through two changes of
// rate, one while a task swaps in and one after. A node of 2 vcores runs
// task A (10 s of work) from 0 at full speed, and task B, whose 6 s of
// work wait for a swap-in until 4. At 2 the allocation doubles (rate
// 1/2): A has done 2 s, its 8 s left take 16, to 18; B, still swapping,
// ends at 4 + 6/(1/2) = 16; at 5 B has 5.5 s of work left, A 6.5 s. At
// 6 the allocation is back (rate 1): A has
// done 2 + 4 × 1/2 = 4 s and ends at 6 + 6 = 12; B has done 2 × 1/2 = 1
// s since its swap-in and ends at 6 + 5 = 11.
func TestCPUClockSwapIn(t *testing.T) {
	e := &Engine{nodes: make([]node, 1), cpus: make([]nodeCPU, 1), cpuShared: true}
	n, c := &e.nodes[0], &e.cpus[0]
	n.capa[1], n.avail[1], c.rate = 2, 0, 1
	c.first = -1
	a, b := TaskRef{Index: 0}, TaskRef{Index: 1}
	c.tasks = []cpuTask{waitingTask(a), waitingTask(b)}
	e.cpuRun(0, a, 0, 10*Second)
	e.cpuRun(0, b, 4*Second, 6*Second)
	check := func(at string, wantA, wantB, leftA, leftB Time, first TaskRef) {
		t.Helper()
		ga, gb := c.due(&c.tasks[0]), c.due(&c.tasks[1])
		la, lb := c.left(&c.tasks[0], e.now), c.left(&c.tasks[1], e.now)
		if ga != wantA || gb != wantB || la != leftA || lb != leftB {
			t.Errorf("at %s: ends %v and %v, work left %v and %v; want %v, %v, %v, %v", at, ga, gb, la, lb, wantA, wantB, leftA, leftB)
		}
		if p := c.next(); p < 0 || c.tasks[p].ref != first || p != c.scan() {
			t.Errorf("at %s: task %d due first (a scan finds %d), want %v", at, p, c.scan(), first)
		}
	}
	check("0", 10*Second, 10*Second, 10*Second, 10*Second, a)
	e.now, n.avail[1] = 2*Second, -2
	e.rerate(0)
	check("2", 18*Second, 16*Second, 8*Second, 8*Second, b)
	if !c.tasks[1].swapping || len(c.swaps) != 1 {
		t.Errorf("at 2: B not swapping (%d swap-ins kept)", len(c.swaps))
	}
	// At 5, with no change since 2, B has done 1 × 1/2 s since its
	// swap-in (5.5 s left) and A 2 + 3 × 1/2 s (6.5 s left).
	e.now = 5 * Second
	check("5", 18*Second, 16*Second, 6500*Second/1000, 5500*Second/1000, b)
	e.now, n.avail[1] = 6*Second, 0
	e.rerate(0)
	check("6", 12*Second, 11*Second, 6*Second, 5*Second, b)
	if c.tasks[1].swapping || len(c.swaps) != 0 {
		t.Errorf("at 6: B still swapping (%d swap-ins kept)", len(c.swaps))
	}
}

// TestDueRounds checks the rounding of due, a task's end on the clock,
// against math.Round on halves, their neighbours, large values and
// values that are no clock reading.
func TestDueRounds(t *testing.T) {
	vs := []float64{-2.5, -1, -0.9, -0.5, -0.4, math.Copysign(0, -1), 0, math.NaN(), math.Inf(-1), 1 << 61, 1<<62 - 512, 1<<62 + 1024,
		0.49999999999999994, 0.5, 1.5, 2.5, 1e15 + 0.5, 1 << 52, 1<<52 + 1, 1 << 53, 1 << 62, 1 << 63, math.Inf(1)}
	for i := 0; i < 100000; i++ {
		x := float64(i) / 16
		vs = append(vs, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
	}
	c := &nodeCPU{rate: 1}
	for _, v := range vs {
		if got, want := c.due(&cpuTask{vend: v}), max(0, Time(math.Round(v))); got != want {
			t.Fatalf("due at reading %v: %d, want %d", v, got, want)
		}
	}
}
