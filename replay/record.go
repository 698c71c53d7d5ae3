package replay

// Outcome says how a task segment ended.
type Outcome uint8

// Segment outcomes.
const (
	OutcomeFinished  Outcome = iota // the task completed
	OutcomeSuspended                // the task was suspended; a later segment resumes it
	OutcomeKilled                   // the attempt was killed; its work is lost
	OutcomeLost                     // the node failed; the attempt's work is lost
)

var outcomeNames = [...]string{"finished", "suspended", "killed", "lost"}

func (o Outcome) String() string { return outcomeNames[o] }

// Segments holds one row per task segment, in columns. A segment is one
// uninterrupted stretch of an attempt on a slot.
type Segments struct {
	Job      []int32
	Kind     []TaskKind
	Task     []int32
	Attempt  []int32 // 1 for the first launch
	Node     []int32
	Start    []Time
	End      []Time
	Swap     []Time // swap time paid at the start of the segment
	Locality []Locality
	Outcome  []Outcome
}

// Len is the number of segments.
func (s *Segments) Len() int { return len(s.Job) }

// Occupancy is a per-job slot occupancy time series in columns: from Time
// on, job Job holds RunningMaps map slots, RunningReduces reduce slots and
// has Suspended tasks suspended, until its next row.
type Occupancy struct {
	Time           []Time
	Job            []int32
	RunningMaps    []int32
	RunningReduces []int32
	Suspended      []int32
}

// Len is the number of rows.
func (o *Occupancy) Len() int { return len(o.Time) }

type recorder struct {
	tasks, occupancy bool
	seg              Segments
	occ              Occupancy
	segTotal         Time // sum of all segment lengths, for the busy-time invariant
}

func (r *recorder) segment(e *Engine, t TaskRef, tk *task, out Outcome) {
	r.segTotal += e.now - tk.segStart
	if !r.tasks {
		return
	}
	s := &r.seg
	s.Job = append(s.Job, t.Job)
	s.Kind = append(s.Kind, t.Kind)
	s.Task = append(s.Task, t.Index)
	s.Attempt = append(s.Attempt, tk.attempts)
	s.Node = append(s.Node, tk.node)
	s.Start = append(s.Start, tk.segStart)
	s.End = append(s.End, e.now)
	s.Swap = append(s.Swap, tk.swapDelay)
	s.Locality = append(s.Locality, tk.loc)
	s.Outcome = append(s.Outcome, out)
}

func (r *recorder) occupancyChange(e *Engine, ji int32) {
	if !r.occupancy {
		return
	}
	j := &e.jobs[ji]
	o := &r.occ
	susp := j.suspended[Map] + j.suspended[Reduce]
	if n := len(o.Time); n > 0 {
		// Several changes of one job at one instant collapse into one row.
		for i := n - 1; i >= 0 && o.Time[i] == e.now; i-- {
			if o.Job[i] == ji {
				o.RunningMaps[i], o.RunningReduces[i], o.Suspended[i] = j.running[Map], j.running[Reduce], susp
				return
			}
		}
	}
	o.Time = append(o.Time, e.now)
	o.Job = append(o.Job, ji)
	o.RunningMaps = append(o.RunningMaps, j.running[Map])
	o.RunningReduces = append(o.RunningReduces, j.running[Reduce])
	o.Suspended = append(o.Suspended, susp)
}
