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

// RowSink takes a replay's task segments and occupancy rows while it runs,
// a chunk at a time, so that a long replay need not hold them all: the
// FB-2010 day has 11 million segments and 23 million occupancy rows. The
// rows come in the order a Result would hold them; the columns passed are
// reused once the call returns. An error stops the replay.
type RowSink interface {
	WriteSegments(s *Segments) error
	WriteOccupancy(o *Occupancy) error
}

// sinkChunk is how many rows the recorder gathers before handing them to
// its sink (a variable for tests).
var sinkChunk = 1 << 16

type recorder struct {
	tasks, occupancy bool
	seg              Segments
	occ              Occupancy
	segTotal         Time // sum of all segment lengths, for the busy-time invariant
	sink             RowSink
	err              error // the sink's first error
}

// StreamRows sends the rows the configuration records (RecordTasks,
// RecordOccupancy) to s as the replay runs, instead of keeping them in the
// Result, whose Segments and Occupancy then stay empty. Call it before Run.
func (e *Engine) StreamRows(s RowSink) { e.rec.sink = s }

// flushSegments hands the gathered segments to the sink.
func (r *recorder) flushSegments() {
	if r.seg.Len() == 0 || r.err != nil {
		return
	}
	r.err = r.sink.WriteSegments(&r.seg)
	s := &r.seg
	s.Job, s.Kind, s.Task, s.Attempt, s.Node = s.Job[:0], s.Kind[:0], s.Task[:0], s.Attempt[:0], s.Node[:0]
	s.Start, s.End, s.Swap, s.Locality, s.Outcome = s.Start[:0], s.End[:0], s.Swap[:0], s.Locality[:0], s.Outcome[:0]
}

// flushOccupancy hands the sink the gathered occupancy rows older than
// now: rows of the current instant may still change (see occupancyChange).
// At the end of the run (final) it hands them all.
func (r *recorder) flushOccupancy(now Time, final bool) {
	o := &r.occ
	cut := o.Len()
	for !final && cut > 0 && o.Time[cut-1] == now {
		cut--
	}
	if cut == 0 || r.err != nil {
		return
	}
	head := Occupancy{Time: o.Time[:cut], Job: o.Job[:cut], RunningMaps: o.RunningMaps[:cut],
		RunningReduces: o.RunningReduces[:cut], Suspended: o.Suspended[:cut]}
	r.err = r.sink.WriteOccupancy(&head)
	n := copy(o.Time, o.Time[cut:])
	copy(o.Job, o.Job[cut:])
	copy(o.RunningMaps, o.RunningMaps[cut:])
	copy(o.RunningReduces, o.RunningReduces[cut:])
	copy(o.Suspended, o.Suspended[cut:])
	o.Time, o.Job, o.RunningMaps, o.RunningReduces, o.Suspended = o.Time[:n], o.Job[:n], o.RunningMaps[:n], o.RunningReduces[:n], o.Suspended[:n]
}

// finish hands the sink the last rows and returns its first error.
func (r *recorder) finish(now Time) error {
	if r.sink == nil {
		return nil
	}
	r.flushSegments()
	r.flushOccupancy(now, true)
	return r.err
}

func (r *recorder) segment(e *Engine, t TaskRef, tk *task, out Outcome) {
	r.segTotal += e.now - tk.segStart
	if r.tasks {
		r.addSegment(e, t, tk, out)
	}
}

// addSegment appends the segment's row, out of line so that segment,
// called at every task end, inlines.
func (r *recorder) addSegment(e *Engine, t TaskRef, tk *task, out Outcome) {
	s := &r.seg
	s.Job = append(s.Job, t.Job)
	s.Kind = append(s.Kind, t.Kind)
	s.Task = append(s.Task, t.Index)
	s.Attempt = append(s.Attempt, tk.attempts)
	s.Node = append(s.Node, tk.node())
	s.Start = append(s.Start, tk.segStart)
	s.End = append(s.End, e.now)
	s.Swap = append(s.Swap, tk.swapDelay)
	s.Locality = append(s.Locality, tk.loc)
	s.Outcome = append(s.Outcome, out)
	if r.sink != nil && len(s.Job) >= sinkChunk {
		r.flushSegments()
	}
}

func (r *recorder) occupancyChange(e *Engine, ji int32) {
	if r.occupancy {
		r.addOccupancy(e, ji)
	}
}

// addOccupancy records job ji's change of occupancy, out of line so
// that occupancyChange inlines.
func (r *recorder) addOccupancy(e *Engine, ji int32) {
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
	if r.sink != nil && len(o.Time) >= sinkChunk {
		r.flushOccupancy(e.now, false)
	}
	o.Time = append(o.Time, e.now)
	o.Job = append(o.Job, ji)
	o.RunningMaps = append(o.RunningMaps, j.running[Map])
	o.RunningReduces = append(o.RunningReduces, j.running[Reduce])
	o.Suspended = append(o.Suspended, susp)
}
