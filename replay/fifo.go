package replay

import "slices"

// FIFO is the minimal policy that drives the engine in its own tests and
// benchmarks: jobs in order of priority (highest first), then submit time;
// each free slot goes to the first job with a task to launch, maps at their
// best locality. Hadoop's own FIFO, with its per-heartbeat rules, is in the
// schedulers package.
type FIFO struct {
	active []int32 // unfinished jobs in queue order
}

var _ Scheduler = (*FIFO)(nil)

// Name implements Scheduler.
func (f *FIFO) Name() string { return "fifo-minimal" }

// OnEvent implements Scheduler.
func (f *FIFO) OnEvent(ev Event, v *View) {
	switch ev.Kind {
	case JobArrived:
		f.active = insertByPriority(f.active, ev.Job, v)
	case JobFinished:
		if i := slices.Index(f.active, ev.Job); i >= 0 {
			f.active = slices.Delete(f.active, i, i+1)
		}
	}
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
	n := hb.Node()
	for hb.Free(Map) > 0 && hb.Demand(Map) > 0 {
		launched := false
		for _, j := range f.active {
			if t, _, ok := hb.PendingMap(j, n, OffRack); ok {
				if err := hb.Launch(TaskRef{Job: j, Kind: Map, Index: t}); err != nil {
					return err
				}
				launched = true
				break
			}
		}
		if !launched {
			break
		}
	}
	if err := resumeHere(hb); err != nil {
		return err
	}
	for hb.Free(Reduce) > 0 && hb.Demand(Reduce) > 0 {
		launched := false
		for _, j := range f.active {
			if t, ok := hb.PendingReduce(j); ok {
				if err := hb.Launch(TaskRef{Job: j, Kind: Reduce, Index: t}); err != nil {
					return err
				}
				launched = true
				break
			}
		}
		if !launched {
			break
		}
	}
	return nil
}

// resumeHere resumes the tasks suspended on the heartbeating node while
// slots of their kind are free.
func resumeHere(hb *Heartbeat) error {
	for {
		resumed := false
		for _, s := range hb.SuspendedHere() {
			if hb.Free(s.Kind) > 0 {
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
