package replay

import (
	"errors"
	"strings"
	"testing"
)

// Hand-computed micro-traces of the container model. Unless a test says
// otherwise: one node, heartbeats every second at 0, 1, 2, …, the minimum
// allocation 1024 MiB and 1 vcore, an ApplicationMaster of 1024 MiB.

const mib = 1 << 20

func oneYARNNode(memMB, vcores int64) Config {
	return Config{Model: ContainerModel, Nodes: 1, NodesPerRack: 1, Replication: 1, Heartbeat: 1,
		NodeMemoryMB: memMB, NodeVcores: vcores, AMMemoryMB: 1024, MaxAMShare: 1}
}

func finishes(r *Result) []float64 {
	var f []float64
	for i := range r.Jobs {
		f = append(f, r.Jobs[i].Finish.Sec())
	}
	return f
}

func wantTimes(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
}

// A 4 GiB node holds the AM and three 1 GiB maps: the job's AM starts at
// the first heartbeat (0), its maps at the same heartbeat, and the fourth
// map when the first three end at 10: the job ends at 20. Memory is fully
// allocated from 0 to 20 (4 GiB × 20 s); the AM holds its container to
// the end.
func TestContainerAMFirstAndPacking(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10, 10, 10}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &FIFO{}, oneYARNNode(4096, 8))
	j := r.Jobs[0]
	if j.AMStart != 0 || j.FirstLaunch != 0 || j.Finish.Sec() != 20 {
		t.Fatalf("AM at %v, first task at %v, finish %v; want 0, 0, 20", j.AMStart, j.FirstLaunch, j.Finish)
	}
	if got, want := r.ResourceSeconds[0], 4096.0*10+2048*10; got != want {
		t.Errorf("memory allocated %v MiB·s, want %v", got, want)
	}
	if got := r.Utilisation(0); got != (4096.0*10+2048*10)/(4096*20) {
		t.Errorf("memory utilisation %v", got)
	}
}

// Mixed sizes: job 0's maps ask for 3 GiB (2.5 GiB rounded up), job 1's
// for 1 GiB, on an 8 GiB node. At 0 both AMs start (2 GiB) and job 0's
// two maps take the other 6 GiB. At 10 they end; job 1's three maps (3
// GiB) start and end at 15. Job 0 ends at 10.
func TestContainerMixedSizes(t *testing.T) {
	tr := mkTrace(t,
		jobSpec(0, []float64{10, 10}, nil, 0, 2560*mib),
		jobSpec(0, []float64{5, 5, 5}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &FIFO{}, oneYARNNode(8192, 8))
	wantTimes(t, "finishes", finishes(r), []float64{10, 15})
	if r.Jobs[1].AMStart != 0 || r.Jobs[1].FirstLaunch.Sec() != 10 {
		t.Errorf("job 1: AM at %v, first map at %v; want 0 and 10", r.Jobs[1].AMStart, r.Jobs[1].FirstLaunch)
	}
}

// The vcores count: 2 vcores hold the AM and one map at a time, so four
// 10 s maps run one after the other (0-10, 10-20, 20-30, 30-40) although
// memory would hold all four.
func TestContainerVcoresCount(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10, 10, 10}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &FIFO{}, oneYARNNode(16384, 2))
	wantTimes(t, "finish", finishes(r), []float64{40})
}

// memoryOnly counts memory alone, as YARN's DefaultResourceCalculator.
type memoryOnly struct{ FIFO }

func (memoryOnly) Counts(res string) bool { return res == ResMemoryMB }

// Under a policy that counts memory alone the same four maps run at once
// on the 2 vcores (overcommitted, as YARN's DefaultResourceCalculator
// allows), and share them with the AM: 5 vcores asked of 2, each task at
// 2/5 of its speed, so the 10 s maps all end at 25.
func TestContainerMemoryOnlyCalculator(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10, 10, 10}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &memoryOnly{}, oneYARNNode(16384, 2))
	wantTimes(t, "finish", finishes(r), []float64{25})
}

// Shared CPUs as the allocation changes, memory counted alone, 2 vcores.
// Job 0 (at 0): its AM and its 10 s map, 2 vcores, full speed. At 5 job
// 1's AM starts (3 vcores: rate 2/3, job 0's map has 5 s of work left,
// 7.5 s at that rate) and its 10 s map launches (4 vcores: rate 1/2; job
// 0's map: 7.5 s × (2/3) / (1/2) = 10 s left, so it ends at 15; job 1's
// map 20 s, to 25). At 15 job 0's map ends (3 vcores: rate 2/3; job 1's
// map has 10 s × 1/2 = 5 s of work left, 7.5 s) and job 0's AM with it
// (2 vcores: rate 1, 5 s): job 1 ends at 20.
func TestContainerSharedCPUs(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10}, nil, 0, 1024*mib), jobSpec(5, []float64{10}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &memoryOnly{}, oneYARNNode(16384, 2))
	wantTimes(t, "finishes", finishes(r), []float64{15, 20})
}

// The AMs' cap: with MaxAMShare 0.25 of 8 GiB (2 GiB), two AMs of 1 GiB
// run at once, the third waits for the first job's end. Three jobs of
// one 10 s map at 0: jobs 0 and 1 end at 10, job 2's AM starts at 10 and
// its map at 10: it ends at 20.
func TestContainerAMShare(t *testing.T) {
	tr := mkTrace(t,
		jobSpec(0, []float64{10}, nil, 0, 1024*mib),
		jobSpec(0, []float64{10}, nil, 0, 1024*mib),
		jobSpec(0, []float64{10}, nil, 0, 1024*mib))
	cfg := oneYARNNode(8192, 8)
	cfg.MaxAMShare = 0.25
	r := mustRun(t, tr, &FIFO{}, cfg)
	wantTimes(t, "finishes", finishes(r), []float64{10, 10, 20})
	if r.Jobs[2].AMStart.Sec() != 10 {
		t.Errorf("job 2's AM started at %v, want 10", r.Jobs[2].AMStart)
	}
}

// A reduce waits for slow-start (one of two maps) and runs in a container
// of its own: 4 GiB node, AM 1 GiB, maps of 2 GiB (1.5 GiB rounded up)
// at 0 take 4 GiB... no: AM 1 + 2 + 2 = 5 > 4, so one map at 0 (0-10),
// the second at 10 (10-20); the reduce (1 GiB) is eligible at 10 and
// launches at 10 beside it (AM 1 + map 2 + reduce 1 = 4), shuffles until
// the last map ends at 20, then runs 5 s: the job ends at 25.
func TestContainerReduceShares(t *testing.T) {
	j := jobSpec(0, []float64{10, 10}, []float64{5}, 0, 0)
	j.MapMemoryBytes, j.ReduceMemoryBytes = 1536*mib, 1024*mib
	tr := mkTrace(t, j)
	cfg := oneYARNNode(4096, 8)
	cfg.SlowStart = 0.5
	r := mustRun(t, tr, &FIFO{}, cfg)
	wantTimes(t, "finish", finishes(r), []float64{25})
	if got := r.Jobs[0].ReducesEligible.Sec(); got != 10 {
		t.Errorf("slow-start at %v, want 10", got)
	}
}

// A container larger than any node is an error naming the job, not a run
// that never ends.
func TestContainerNeverFits(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10}, nil, 0, 1024*mib), jobSpec(5, []float64{10}, nil, 0, 9000*mib))
	e, err := New(tr, &FIFO{}, oneYARNNode(8192, 8))
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Run()
	if err == nil || !strings.Contains(err.Error(), `job 1 (id 1, "job1") can never run`) || !strings.Contains(err.Error(), "memory-mb 9216") {
		t.Fatalf("err = %v; want job 1 named as never fitting", err)
	}
}

// A policy that launches a task that does not fit is refused.
func TestContainerOvercommitRefused(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10}, nil, 0, 3072*mib))
	_, err := Run(tr, &overcommitter{}, oneYARNNode(4096, 8))
	if !errors.Is(err, ErrInvalidAction) || !strings.Contains(err.Error(), "memory-mb 3072, vcores 1 on a node with memory-mb 0, vcores 6 left") {
		t.Fatalf("err = %v; want an invalid action naming the sizes", err)
	}
}

// overcommitter launches every pending map of every job on whatever node
// heartbeats, fit or not.
type overcommitter struct{}

func (overcommitter) Name() string              { return "overcommitter" }
func (overcommitter) OnEvent(ev Event, v *View) {}
func (overcommitter) OnHeartbeat(hb *Heartbeat) error {
	for j := int32(0); j < int32(hb.Jobs()); j++ {
		for hb.Job(j).Arrived() && hb.Job(j).Pending(Map) > 0 {
			t, _, _ := hb.PendingMap(j, hb.Node(), OffRack)
			if err := hb.Launch(TaskRef{Job: j, Kind: Map, Index: t}); err != nil {
				return err
			}
		}
	}
	return nil
}

// A heterogeneous cluster: node 0 on rack 0 (8 GiB, 8 vcores, speed 2)
// and node 1 on rack 1 (2 GiB, 2 vcores), heartbeats at 0 and 0.5. One
// job of four 10 s maps at 0: at node 0's heartbeat at 0 its AM (1 GiB)
// starts and all four maps fit beside it (5 of 8 GiB), running at speed 2:
// 5 s each, so the job ends at 5 with every map on node 0 and nothing left
// for node 1 at 0.5. Locality factors are 1, so block placement does not
// matter. The capacities add up per resource.
func TestContainerHeterogeneousCluster(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10, 10, 10}, nil, 0, 1024*mib))
	cfg := Config{Model: ContainerModel, Heartbeat: 1, Replication: 1, AMMemoryMB: 1024, MaxAMShare: 1,
		RecordTasks: true, OffRackFactor: 1, RackLocalFactor: 1,
		Cluster: []NodeSpec{{Rack: 0, MemoryMB: 8192, Vcores: 8, Speed: 2}, {Rack: 1, MemoryMB: 2048, Vcores: 2}}}
	r := mustRun(t, tr, &FIFO{}, cfg)
	s := &r.Segments
	onNode := [2]int{}
	for i := range s.Job {
		onNode[s.Node[i]]++
	}
	if onNode != [2]int{4, 0} {
		t.Errorf("maps per node %v, want all four on node 0", onNode)
	}
	if r.ResourceCapacity[0] != 10240 || r.ResourceCapacity[1] != 10 {
		t.Errorf("capacity %v", r.ResourceCapacity)
	}
	if r.Jobs[0].Finish.Sec() != 5 || r.Jobs[0].AMStart != 0 {
		t.Errorf("AM at %v, finish %v; want 0 and 5", r.Jobs[0].AMStart, r.Jobs[0].Finish)
	}
}

// suspender runs job 0's map, suspends it for job 1's map when job 1
// arrives, and resumes it once it fits again.
type suspender struct{}

func (suspender) Name() string              { return "suspender" }
func (suspender) OnEvent(ev Event, v *View) {}
func (suspender) OnHeartbeat(hb *Heartbeat) error {
	for j := int32(0); j < int32(hb.Jobs()); j++ {
		jv := hb.Job(j)
		if !jv.Arrived() || jv.Pending(Map) == 0 {
			continue
		}
		if !hb.Fits(j, Map) && j == 1 {
			for _, t := range hb.Running() {
				if t.Job == 0 {
					if err := hb.Suspend(t); err != nil {
						return err
					}
					break
				}
			}
		}
		if hb.Fits(j, Map) {
			t, _, _ := hb.PendingMap(j, hb.Node(), OffRack)
			if err := hb.Launch(TaskRef{Job: j, Kind: Map, Index: t}); err != nil {
				return err
			}
		}
	}
	for _, t := range hb.SuspendedHere() {
		if hb.Job(1).Done() && hb.Fits(t.Job, t.Kind) {
			return hb.Resume(t)
		}
	}
	return nil
}

// Suspension in containers, on a 4 GiB node with ApplicationMasters of 1
// GiB. Job 0 (at 0) runs a 20 s map in a 2 GiB container from 0. Job 1
// arrives at 5; its AM takes the last GiB; the policy suspends job 0's
// map (15 s left) and launches job 1's 5 s map of 1 GiB. The node would
// then hold 3 GiB allocated and 2 GiB suspended, over its 4 GiB: the
// suspended container is swapped out, 2 GiB at 100 MB/s = 21.474836 s,
// which the new map waits: it ends at 5 + 21.474836 + 5 = 31.474836 and
// job 1 with it. At the next heartbeat, 32, job 0's map resumes and swaps
// back in (21.474836 s), then runs its 15 s: job 0 ends at 68.474836.
func TestContainerSuspendSwaps(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{20}, nil, 0, 2048*mib), jobSpec(5, []float64{5}, nil, 0, 1024*mib))
	r := mustRun(t, tr, suspender{}, oneYARNNode(4096, 8))
	wantTimes(t, "finishes", finishes(r), []float64{68.474836, 31.474836})
	if r.Jobs[0].Suspensions != 1 || r.SwapTime.Sec() != 2*21.474836 {
		t.Errorf("%d suspensions, swap time %v; want 1 and 2 × 21.474836 s", r.Jobs[0].Suspensions, r.SwapTime)
	}
}

// taskEnds is the end of each finished segment, by job, kind and index.
func taskEnds(r *Result) map[TaskRef]float64 {
	s := &r.Segments
	m := map[TaskRef]float64{}
	for i := range s.Job {
		if s.Outcome[i] == OutcomeFinished {
			m[TaskRef{Job: s.Job[i], Kind: s.Kind[i], Index: s.Task[i]}] = s.End[i].Sec()
		}
	}
	return m
}

// Two tasks of unequal work share the CPUs: memory counted alone, 2
// vcores, the AM and maps of 10 s and 20 s from 0 ask for 3: each runs at
// 2/3. The 10 s map ends at 15; the 20 s map has done 15 × 2/3 = 10 s of
// its work, and alone with the AM (2 vcores, full speed) does the other
// 10 s by 25.
func TestContainerSharedUnequal(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 20}, nil, 0, 1024*mib))
	r := mustRun(t, tr, &memoryOnly{}, oneYARNNode(16384, 2))
	ends := taskEnds(r)
	if a, b := ends[TaskRef{Kind: Map, Index: 0}], ends[TaskRef{Kind: Map, Index: 1}]; a != 15 || b != 25 {
		t.Fatalf("maps end at %v and %v, want 15 and 25", a, b)
	}
}

// A reduce waiting for its maps shares no CPU until its shuffle can run,
// but counts in the allocation. Memory counted alone, 2 vcores, reduces
// at once (slow-start 0). At 0 the AM and two 10 s maps ask for 3 vcores:
// rate 2/3. The reduce (6 s, no shuffle bytes) is eligible once the last
// map has launched (maybeEligible) and launches at the heartbeat of 1:
// rate 1/2 from then. The maps have done 2/3 s and take 2 × 28/3 s =
// 18.666667 s more: they end at 19.666667. Then the AM and the reduce ask
// for 2 vcores: full speed, the reduce ends at 25.666667.
func TestContainerSharedWaitingReduce(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{10, 10}, []float64{6}, 0, 1024*mib))
	cfg := oneYARNNode(16384, 2)
	cfg.SlowStart = -1 // reduces launch at once
	r := mustRun(t, tr, &memoryOnly{}, cfg)
	ends := taskEnds(r)
	s := &r.Segments
	for i := range s.Job {
		if s.Kind[i] == Reduce && s.Start[i].Sec() != 1 {
			t.Fatalf("the reduce launched at %v, want 1", s.Start[i])
		}
	}
	if m, red := ends[TaskRef{Kind: Map, Index: 1}], ends[TaskRef{Kind: Reduce, Index: 0}]; m != 19.666667 || red != 25.666667 {
		t.Fatalf("last map ends at %v, the reduce at %v; want 19.666667 and 25.666667", m, red)
	}
}

// memorySuspender is suspender under a policy that counts memory alone.
type memorySuspender struct{ suspender }

func (memorySuspender) Counts(res string) bool { return res == ResMemoryMB }

// A suspension keeps the work left at full speed, whatever the node's
// rate. Memory counted alone, 4 GiB and 1 vcore. At 0 job 0's AM and its
// 20 s map of 2 GiB share the vcore (rate 1/2). At 5 the map has done
// 2.5 s; job 1's AM starts (rate 1/3: the map's 17.5 s left would take
// 52.5 s), and the policy suspends the map (17.5 s of work kept) for job
// 1's 5 s map of 1 GiB, which waits for the swap-out of the suspended 2
// GiB (21.474836 s, as in TestContainerSuspendSwaps) and runs at 1/3
// beside the two AMs: 15 s, to 41.474836, job 1's end. At the heartbeat
// of 42 job 0's map resumes, swaps in (21.474836 s) and runs its 17.5 s
// at 1/2 beside its AM: 35 s, to 98.474836.
func TestContainerSharedSuspend(t *testing.T) {
	tr := mkTrace(t, jobSpec(0, []float64{20}, nil, 0, 2048*mib), jobSpec(5, []float64{5}, nil, 0, 1024*mib))
	r := mustRun(t, tr, memorySuspender{}, oneYARNNode(4096, 1))
	wantTimes(t, "finishes", finishes(r), []float64{98.474836, 41.474836})
	if r.Jobs[0].Suspensions != 1 {
		t.Errorf("%d suspensions, want 1", r.Jobs[0].Suspensions)
	}
}
