package replay

import "slices"

// FIFO is the minimal policy that drives the engine in its own tests and
// benchmarks: jobs in order of priority (highest first), then submit time;
// each free slot goes to the first job with a task to launch, maps at their
// best locality. Hadoop's own FIFO, with its per-heartbeat rules, is in the
// schedulers package.
type FIFO struct {
	active []int32 // unfinished jobs in queue order
	// wants[k] is the subsequence of active that may have tasks of kind k
	// to launch, so that a heartbeat does not walk past every job whose
	// tasks all run. A job found with none leaves it; one whose task is
	// pending again after a kill or loss comes back.
	wants [2][]int32
	in    [2][]bool // by job: in wants[k]
}

var (
	_ Scheduler = (*FIFO)(nil)
	_ Selective = (*FIFO)(nil)
)

// Name implements Scheduler.
func (f *FIFO) Name() string { return "fifo-minimal" }

// Events implements Selective: the arrivals and ends of jobs, and the
// tasks pending again.
func (f *FIFO) Events() EventMask {
	return EventsOf(JobArrived, TaskKilled, TaskLost, JobFinished)
}

// OnEvent implements Scheduler.
func (f *FIFO) OnEvent(ev Event, v *View) {
	switch ev.Kind {
	case JobArrived:
		if len(f.in[Map]) < v.Jobs() {
			f.in = [2][]bool{make([]bool, v.Jobs()), make([]bool, v.Jobs())}
		}
		f.active = insertByPriority(f.active, ev.Job, v)
		f.want(Map, ev.Job, v)
		if v.Job(ev.Job).Tasks(Reduce) > 0 {
			f.want(Reduce, ev.Job, v)
		}
	case TaskKilled, TaskLost:
		if !f.in[ev.Task.Kind][ev.Job] {
			f.want(ev.Task.Kind, ev.Job, v)
		}
	case JobFinished:
		if i := slices.Index(f.active, ev.Job); i >= 0 {
			f.active = slices.Delete(f.active, i, i+1)
		}
	}
}

// want puts job j back in wants[k], at its place in queue order.
func (f *FIFO) want(k TaskKind, j int32, v *View) {
	f.in[k][j] = true
	w := f.wants[k]
	i, _ := slices.BinarySearchFunc(w, j, func(a, b int32) int { return queueCompare(v, a, b) })
	f.wants[k] = slices.Insert(w, i, j)
}

// drop removes the i-th job of wants[k].
func (f *FIFO) drop(k TaskKind, i int) {
	f.in[k][f.wants[k][i]] = false
	f.wants[k] = slices.Delete(f.wants[k], i, i+1)
}

// queueCompare is the queue order: priority (highest first), then trace
// order, which is submit order.
func queueCompare(v *View, a, b int32) int {
	if pa, pb := v.Job(a).Priority(), v.Job(b).Priority(); pa != pb {
		return int(pb) - int(pa)
	}
	return int(a) - int(b)
}

// insertByPriority inserts job j into queue, kept in order of priority
// (highest first), then submit time, then trace order.
func insertByPriority(queue []int32, j int32, v *View) []int32 {
	pj := v.Job(j).Priority()
	i := len(queue)
	for i > 0 && v.Job(queue[i-1]).Priority() < pj {
		i--
	}
	return slices.Insert(queue, i, j)
}

// OnHeartbeat implements Scheduler.
func (f *FIFO) OnHeartbeat(hb *Heartbeat) error {
	if hb.Model() == ContainerModel {
		// Reduce containers first: MapReduce's ApplicationMaster asks for
		// them at a higher priority than maps.
		if err := f.reduces(hb); err != nil {
			return err
		}
		if err := f.maps(hb); err != nil {
			return err
		}
		return resumeHere(hb)
	}
	if err := f.maps(hb); err != nil {
		return err
	}
	if len(hb.SuspendedHere()) > 0 {
		if err := resumeHere(hb); err != nil {
			return err
		}
	}
	return f.reduces(hb)
}

// maps launches the first job's maps, at their best locality, while slots
// are free.
func (f *FIFO) maps(hb *Heartbeat) error {
	n := hb.Node()
	for hb.Free(Map) > 0 && hb.Demand(Map) > 0 {
		j, ok := f.first(hb, Map)
		if !ok {
			break
		}
		t, _, _ := hb.PendingMap(j, n, OffRack)
		if err := hb.Launch(TaskRef{Job: j, Kind: Map, Index: t}); err != nil {
			return err
		}
	}
	return nil
}

// reduces launches the first job's reduces while slots are free.
func (f *FIFO) reduces(hb *Heartbeat) error {
	for hb.Free(Reduce) > 0 && hb.Demand(Reduce) > 0 {
		j, ok := f.first(hb, Reduce)
		if !ok {
			break
		}
		t, _ := hb.PendingReduce(j)
		if err := hb.Launch(TaskRef{Job: j, Kind: Reduce, Index: t}); err != nil {
			return err
		}
	}
	return nil
}

// first returns the first job in queue order with a task of kind k to
// launch, dropping the jobs it finds with none that cannot get one
// without an event (a kill or loss).
func (f *FIFO) first(v *Heartbeat, k TaskKind) (int32, bool) {
	for i := 0; i < len(f.wants[k]); {
		j := f.wants[k][i]
		jv := v.Job(j)
		switch {
		case jv.Pending(k) > 0 && (k == Map || jv.ReducesEligible()):
			if !v.Fits(j, k) {
				i++ // its container does not fit here: the next job's may
				continue
			}
			return j, true
		case jv.Pending(k) == 0 && (k == Map || jv.ReducesEligible() || jv.Done()):
			f.drop(k, i)
		default:
			i++ // reduces before slow-start
		}
	}
	return 0, false
}

// resumeHere resumes the tasks suspended on the heartbeating node while
// they fit.
func resumeHere(hb *Heartbeat) error {
	for {
		resumed := false
		for _, s := range hb.SuspendedHere() {
			if hb.Fits(s.Job, s.Kind) {
				if err := hb.Resume(s); err != nil {
					return err
				}
				resumed = true
				break // the list changed
			}
		}
		if !resumed {
			return nil
		}
	}
}
