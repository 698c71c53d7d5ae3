package replay

import (
	"reflect"
	"slices"
	"testing"

	"sojourn/traces"
)

// eagerRecords, when eager, makes every job's task records and block
// placement as it arrives, as the engine did before it made them when
// first needed; otherwise it checks on every event that no job holds
// records before its first launch.
type eagerRecords struct {
	Scheduler
	t     *testing.T
	eager bool
	// waitingBare counts, over the events, the jobs seen waiting (arrived,
	// none launched) without records: the laziness the test is about.
	waitingBare int
}

func (s *eagerRecords) OnEvent(ev Event, v *View) {
	e := v.e
	if s.eager && ev.Kind == JobArrived {
		j := &e.jobs[ev.Job]
		for k := Map; k <= Reduce; k++ {
			for t := range j.count(k) {
				e.recFor(j, k, t)
			}
		}
		v.Job(ev.Job).Replicas()
	}
	if !s.eager {
		for i := range e.jobs {
			j := &e.jobs[i]
			if !j.arrived || j.done {
				continue
			}
			// A chunk of records is made for a launch: each holds a task
			// that has launched.
			for k := Map; k <= Reduce; k++ {
				for ci, c := range j.recs[k] {
					if c != nil && !slices.ContainsFunc(c[:], func(t task) bool { return t.attempts > 0 }) {
						s.t.Fatalf("job %d has a chunk of %s records (%d) none of which launched", i, k, ci)
					}
				}
			}
			if j.launchedOnce {
				continue
			}
			if j.recs[Map] != nil || j.recs[Reduce] != nil {
				s.t.Fatalf("job %d has task records before its first launch", i)
			}
			s.waitingBare++
		}
	}
	s.Scheduler.OnEvent(ev, v)
}

// TestRecordsMadeWhenNeeded replays a backlog (more work than the cluster
// does while jobs arrive) with records made when first needed, out of
// arrival order, and with every job's made on arrival: every job, every
// task segment and every occupancy change must be the same, with node
// failures and speeds (attempts lost and pending again) and without.
func TestRecordsMadeWhenNeeded(t *testing.T) {
	var specs []traces.Job
	for i := range 60 {
		maps := make([]float64, 10+i%5*15)
		for m := range maps {
			maps[m] = float64(20 + (i*7+m*13)%90)
		}
		j := jobSpec(float64(i*4), maps, []float64{30, 45, 60}[:1+i%3], 1e6, 1<<30)
		// Priorities take later jobs ahead of waiting ones, so that jobs
		// are first served, and their records made, out of arrival order.
		j.Priority = traces.Priority(i%5 - 2)
		specs = append(specs, j)
	}
	tr := mkTrace(t, specs...)
	for _, cfg := range []Config{
		{Nodes: 12, NodesPerRack: 4, Seed: 1},
		{Nodes: 12, NodesPerRack: 4, Seed: 2, MTBF: 2000, MTTR: 300, SpeedSigma: 0.3, OutOfBandHeartbeat: true},
	} {
		lazy := &eagerRecords{Scheduler: &FIFO{}, t: t}
		a := mustRun(t, tr, lazy, cfg)
		b := mustRun(t, tr, &eagerRecords{Scheduler: &FIFO{}, t: t, eager: true}, cfg)
		if lazy.waitingBare == 0 {
			t.Fatal("no job ever waited without records: the trace needs a backlog")
		}
		if cfg.MTBF > 0 && a.LostWork == 0 {
			t.Fatal("no attempt lost: the test needs failures that hit running tasks")
		}
		if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Segments, b.Segments) ||
			!reflect.DeepEqual(a.Occupancy, b.Occupancy) || a.Stats != b.Stats {
			t.Fatalf("seed %d: records made when needed and on arrival give different replays", cfg.Seed)
		}
	}
}

// placementWatch records, at every event, whether job 0 holds its block
// placement, and checks that it is always the one first made.
type placementWatch struct {
	Scheduler
	t     *testing.T
	held  []bool
	first []int32
}

func (s *placementWatch) OnEvent(ev Event, v *View) {
	r := v.e.jobs[0].replicas
	s.held = append(s.held, r != nil)
	if r != nil && s.first == nil {
		s.first = slices.Clone(r)
	} else if r != nil && !slices.Equal(r, s.first) {
		s.t.Fatalf("job 0's placement made again differs: %v, first %v", r, s.first)
	}
	s.Scheduler.OnEvent(ev, v)
}

// TestIdlePlacementLetGo: on one node of one map slot, job 0 runs one of
// its maps and then waits (twice idlePlacement) behind job 1's map of
// higher priority. Its placement goes at the first map end after it has
// been idle that long (job 1's), and is made again, the same, for its
// next map.
func TestIdlePlacementLetGo(t *testing.T) {
	long := 2 * idlePlacement.Sec()
	a := jobSpec(0, []float64{10, 10, 10}, nil, 0, 1<<30)
	b := jobSpec(5, []float64{long}, nil, 0, 1<<30)
	b.Priority = 1
	tr := mkTrace(t, a, b)
	cfg := Config{Nodes: 1, NodesPerRack: 1, MapSlots: 1, ReduceSlots: 1, Seed: 3}
	w := &placementWatch{Scheduler: &FIFO{}, t: t}
	got := mustRun(t, tr, w, cfg)
	on := slices.Index(w.held, true)
	off := on + slices.Index(w.held[on+1:], false) + 1
	if on < 0 || off <= on || !slices.Contains(w.held[off:], true) {
		t.Fatalf("job 0's placement was not made, let go and made again: %v", w.held)
	}
	if fin := got.Jobs[0].Finish.Sec(); fin < long {
		t.Fatalf("job 0 finished at %g, before job 1's map of %g s: it did not wait", fin, long)
	}
}

// releaseWatch checks at every event that a job whose maps have all
// launched, none ever pending again, holds no placement, and that a job
// whose placement was made again after a map of it was lost keeps it until
// it finishes. With keep it instead marks every job as it arrives as one
// that never lets go of its placement at its last launch.
type releaseWatch struct {
	Scheduler
	t    *testing.T
	keep bool
	// bare counts the jobs seen with maps still running and no placement;
	// again the lost maps of jobs that had let go of theirs.
	bare, again int
	remade      map[int32]bool
}

func (s *releaseWatch) OnEvent(ev Event, v *View) {
	e := v.e
	if s.keep && ev.Kind == JobArrived {
		e.jobs[ev.Job].keepPlaced = true
	}
	if !s.keep {
		if ev.Kind == TaskLost && ev.Task.Kind == Map && e.jobs[ev.Job].keepPlaced && e.jobs[ev.Job].replicas == nil {
			s.again++
		}
		for i := range e.jobs {
			j := &e.jobs[i]
			if !j.arrived || j.done {
				continue
			}
			switch {
			case s.remade[int32(i)] && j.replicas == nil:
				s.t.Fatalf("job %d let go of its placement made again", i)
			case j.keepPlaced && j.replicas != nil:
				s.remade[int32(i)] = true
			case j.pending[Map] == 0 && j.lost == 0 && (j.replicas != nil || j.index != nil):
				s.t.Fatalf("job %d holds its placement with every map launched", i)
			case j.pending[Map] == 0 && j.running[Map] > 0:
				s.bare++
			}
		}
	}
	s.Scheduler.OnEvent(ev, v)
}

// TestPlacementLetGoAtLastLaunch: a job lets go of its placement as its
// last map launches, and one of its maps lost on a failed node afterwards
// launches with the locality, and on the node, it would have had with the
// placement kept: the replays with and without the release are the same,
// segment by segment. Jobs of more maps than indexedMaps use the locality
// indexes, the smaller ones the scan.
func TestPlacementLetGoAtLastLaunch(t *testing.T) {
	var specs []traces.Job
	for i := range 40 {
		maps := make([]float64, []int{6, 20, 40}[i%3])
		for m := range maps {
			maps[m] = float64(60 + (i*11+m*17)%240)
		}
		specs = append(specs, jobSpec(float64(i*30), maps, []float64{200, 300}, 1e6, 1<<30))
	}
	tr := mkTrace(t, specs...)
	cfg := Config{Nodes: 24, NodesPerRack: 4, Seed: 5, MTBF: 3000, MTTR: 200}
	rel := &releaseWatch{Scheduler: &FIFO{}, t: t, remade: map[int32]bool{}}
	a := mustRun(t, tr, rel, cfg)
	b := mustRun(t, tr, &releaseWatch{Scheduler: &FIFO{}, t: t, keep: true}, cfg)
	if rel.bare == 0 {
		t.Fatal("no job was seen running its last maps without a placement")
	}
	if rel.again == 0 || len(rel.remade) == 0 {
		t.Fatalf("%d maps lost after their job let go of its placement, %d placements made again: the test needs both",
			rel.again, len(rel.remade))
	}
	if !reflect.DeepEqual(a.Jobs, b.Jobs) || !reflect.DeepEqual(a.Segments, b.Segments) || a.Stats != b.Stats {
		t.Fatal("the replays with the placement let go at the last launch and kept differ")
	}
}

// indexWatch checks, before every heartbeat, that the locality indexes of
// every job that has them give the first pending map on the node (and,
// for a sparse index, on each node of its rows) and on its rack that a
// scan of the job's pending maps gives (scanLocal), and counts the dense
// and sparse indexes met.
type indexWatch struct {
	Scheduler
	t             *testing.T
	dense, sparse int
}

func (s *indexWatch) OnHeartbeat(hb *Heartbeat) error {
	e, n := hb.e, hb.Node()
	for i := range e.jobs {
		j := &e.jobs[i]
		if j.index == nil || j.done || j.pending[Map] == 0 {
			continue
		}
		if j.index.byNode.dense {
			s.dense++
		} else {
			s.sparse++
		}
		// A sparse index is asked about each node of its rows too.
		at := []int32{n}
		if !j.index.byNode.dense {
			at = append(at, j.replicas...)
		}
		for _, n := range at {
			// The scan stops at a node-local map: its rack answer stands
			// only where it found none.
			wn, wr := e.scanLocal(j, n)
			gn, gr := j.index.byNode.first(n, j), j.index.byRack.first(e.rackOf[n], j)
			if gn != wn || wn < 0 && gr != wr {
				s.t.Fatalf("job %d on node %d: indexes give maps %d (node) and %d (rack), the scan %d and %d", i, n, gn, gr, wn, wr)
			}
		}
	}
	return s.Scheduler.OnHeartbeat(hb)
}

// TestLocalityIndexesMatchScan: on a small cluster every index is dense
// (a row for every node), on a large one a job of few maps has a sparse
// one (rows for its nodes only); both must answer as the scan does. No
// map is ever pending again here, so the scan from the job's cursor sees
// every pending map.
func TestLocalityIndexesMatchScan(t *testing.T) {
	var specs []traces.Job
	for i := range 12 {
		maps := make([]float64, []int{20, 60, 300}[i%3])
		for m := range maps {
			maps[m] = float64(30 + (i*7+m*13)%50)
		}
		specs = append(specs, jobSpec(float64(i*20), maps, nil, 0, 1<<30))
	}
	tr := mkTrace(t, specs...)
	var dense, sparse int
	for _, nodes := range []int{40, 2000} {
		w := &indexWatch{Scheduler: &FIFO{}, t: t}
		mustRun(t, tr, w, Config{Nodes: nodes, NodesPerRack: 20, MapSlots: 1, Seed: 7})
		dense += w.dense
		sparse += w.sparse
	}
	if dense == 0 || sparse == 0 {
		t.Fatalf("%d dense and %d sparse indexes looked at: the test needs both", dense, sparse)
	}
}
