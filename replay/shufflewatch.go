package replay

// ShuffleWatch measures reduce-slot hoarding: stretches of simulated time
// during which at least Share of the cluster's reduce slots are held by
// reduces waiting in shuffle for their job's maps, while another job whose
// maps have all finished has reduces waiting for a slot. Such reduces
// could run to their end at once; the slots' holders cannot until their
// maps are done (the public HFSP code's coupling of a job's phases does
// this to a large job for hours). Attach it with Engine.ObserveEvents before
// the run; it changes nothing in the run.
type ShuffleWatch struct {
	ReduceSlots int     // the cluster's reduce slots
	Share       float64 // share of them that counts as hoarding; 0 means 0.5

	running  []int32 // reduces of each job running
	pending  []int32 // reduces of each job waiting to launch
	mapsDone []bool
	waiting  int // running reduces whose job's maps are not done
	ready    int // jobs whose maps are done with reduces waiting to launch

	on          bool
	since, last Time
	// Total is the time spent hoarding in all; Longest the longest
	// stretch, from LongestFrom.
	Total, Longest, LongestFrom Time
}

// Events is what Observe reads (Engine.ObserveEvents): all but the
// events of maps, which change neither its counts nor, since every
// stretch of hoarding starts and ends at an event it reads and the run's
// last event is a job's finish, its times.
func (w *ShuffleWatch) Events() EventMask {
	return AllEvents &^ TaskEventsOf(Map, TaskStarted, TaskFinished, TaskSuspended, TaskResumed, TaskKilled, TaskLost)
}

// Observe is the engine's observer (Engine.ObserveEvents with Events).
func (w *ShuffleWatch) Observe(ev Event, v *View) {
	w.advance(ev.Time)
	j := ev.Job
	switch ev.Kind {
	case JobArrived:
		for int(j) >= len(w.running) {
			w.running, w.pending, w.mapsDone = append(w.running, 0), append(w.pending, 0), append(w.mapsDone, false)
		}
		w.pending[j] = int32(v.Job(j).Tasks(Reduce))
		return
	case MapsDone:
		w.mapsDone[j] = true
		w.waiting -= int(w.running[j])
		if w.pending[j] > 0 {
			w.ready++
		}
	case TaskStarted, TaskResumed:
		if ev.Task.Kind != Reduce {
			return
		}
		w.running[j]++
		if !w.mapsDone[j] {
			w.waiting++
		}
		if ev.Kind == TaskStarted {
			w.setPending(j, w.pending[j]-1)
		}
	case TaskFinished, TaskSuspended, TaskKilled, TaskLost:
		if ev.Task.Kind != Reduce {
			return
		}
		w.running[j]--
		if !w.mapsDone[j] {
			w.waiting--
		}
		if ev.Kind == TaskKilled || ev.Kind == TaskLost {
			w.setPending(j, w.pending[j]+1)
		}
	default:
		return
	}
	share := w.Share
	if share == 0 {
		share = 0.5
	}
	on := w.ready > 0 && float64(w.waiting) >= share*float64(w.ReduceSlots)
	if on && !w.on {
		w.since = ev.Time
	}
	w.on = on
}

// setPending keeps the count of jobs ready to run reduces.
func (w *ShuffleWatch) setPending(j int32, n int32) {
	if w.mapsDone[j] && (w.pending[j] > 0) != (n > 0) {
		if n > 0 {
			w.ready++
		} else {
			w.ready--
		}
	}
	w.pending[j] = n
}

// advance accounts for the time since the last event.
func (w *ShuffleWatch) advance(t Time) {
	if w.on && t > w.last {
		w.Total += t - w.last
		if t-w.since > w.Longest {
			w.Longest, w.LongestFrom = t-w.since, w.since
		}
	}
	w.last = t
}
