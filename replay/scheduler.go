package replay

import "fmt"

// Scheduler is a scheduling policy driven by the engine.
//
// OnEvent tells the policy what happened; the cluster state seen through the
// View already includes the event. OnHeartbeat is called when a node reports
// in with free slots (or, for a Preempter, while it wants to preempt); the
// policy acts on that node through the Heartbeat. Returning an error aborts
// the run.
type Scheduler interface {
	Name() string
	OnEvent(ev Event, v *View)
	OnHeartbeat(hb *Heartbeat) error
}

// Starter is implemented by policies that need to see the cluster before
// the first event (for example to size per-node state).
type Starter interface {
	Start(v *View) error
}

// Decider is implemented by policies that decide on their queue as a
// whole (admission, reservations) rather than node by node. Every event of
// one simulated instant is applied and told (OnEvent) before the policy
// decides: the engine calls Decide once the last task end, node failure
// or repair and arrival due at that instant has been applied, and before
// that instant's heartbeats, as Batsim hands a scheduler every event of
// one timestamp in one message. Several jobs ending at the same second of
// an SWF log are thus one decision, not one per end, in which a narrow job
// could take a partial release ahead of a wider one. Decide is called only
// at instants at which the policy was told of something outside its own
// heartbeats (its launches, suspensions, resumptions and kills are its
// decisions already), and at the time it last asked for: Decide returns
// the time at which it wants to decide next even if nothing happens (a
// periodic pass), or Never. The view is read-only, as in OnEvent: what
// Decide settles takes effect through the heartbeats that follow.
type Decider interface {
	Decide(v *View) Time
}

// Selective is implemented by policies that read only some events: the
// engine does not call OnEvent with the others (it still counts them as
// calls into the policy, for a Quieter's and a Decider's sake). Events
// returns the set read; it is asked once, when the engine is built.
type Selective interface {
	Events() EventMask
}

// EventMask is a set of events by kind and, for task events, by the
// task's kind.
type EventMask uint32

// AllEvents holds every event.
const AllEvents = ^EventMask(0)

// A mask has two bits a kind of event, one per kind of task: 16 kinds at
// most (a kind more does not compile).
var _ [32 - 2*len(eventNames)]struct{}

// EventsOf holds the events of the given kinds, of tasks of both kinds.
func EventsOf(kinds ...EventKind) EventMask {
	var m EventMask
	for _, k := range kinds {
		m |= 3 << (2 * k)
	}
	return m
}

// TaskEventsOf holds the task events of the given kinds of tasks of kind t
// only.
func TaskEventsOf(t TaskKind, kinds ...EventKind) EventMask {
	var m EventMask
	for _, k := range kinds {
		m |= 1 << (2*uint(k) + uint(t))
	}
	return m
}

// Has reports whether ev is in m. (An event of no task names a map.)
func (m EventMask) Has(ev Event) bool { return m.has(ev.Kind, ev.Task.Kind) }

func (m EventMask) has(k EventKind, t TaskKind) bool {
	return m>>(2*uint(k)+uint(t))&1 != 0
}

// Preempter is implemented by policies that may act on nodes with no free
// slot. While WantsBusyHeartbeats returns true, nodes with no free slot
// keep heartbeating; otherwise they are silent until a slot frees, which
// keeps saturated stretches cheap.
type Preempter interface {
	WantsBusyHeartbeats(v *View) bool
}

// AMScheduler is implemented by container-model policies that decide
// which waiting ApplicationMaster starts, as YARN's schedulers allocate
// an AM's container like any other, within their queues' AM limits.
// Without one the engine starts AMs in submit order under
// Config.MaxAMShare; with one that cap is the policy's to apply.
//
// At each heartbeat of a node where an AM fits, before OnHeartbeat, the
// engine asks ChooseAM for the job whose AM starts there, again after
// each start, until it answers -1. It must name a job waiting for its AM
// (JobView.AMWaiting); the job then arrives for the policy (JobArrived).
// View.Submitted tells the policy which jobs were submitted, so that it
// may count waiting AMs as demand before they start.
type AMScheduler interface {
	ChooseAM(node int32, v *View) int32
}

// Incrementer is implemented by container-model policies whose
// scheduler rounds a request up to a multiple of an increment rather than
// of the minimum allocation: YARN's FairScheduler normalises to
// yarn.scheduler.increment-allocation-mb and -vcores, at least the
// minimum allocation, where the CapacityScheduler's step is the minimum
// allocation itself. Both values must be positive.
type Incrementer interface {
	AllocationIncrement() (memoryMB, vcores int64)
}

// Quieter is implemented by policies that can tell the engine when free
// slots of a kind are of no use to them, so that nodes whose only free
// slots are of that kind need not report. HFSP, for one, leaves reduce
// slots free while every waiting reduce belongs to a job whose maps still
// run: on an overloaded cluster those nodes would report every interval
// to no effect, most of the run's events.
//
// WantsSlots reports whether a heartbeat of a node whose free slots
// where tasks wait are of kind k could do anything there (launch, resume,
// suspend or kill); it may answer true when it would not, never false
// when it would. QuietUntil is the earliest time
// at which a heartbeat that launches nothing would still change the
// policy's state (a clock, an estimate due); from then on nodes report as
// usual until the answer moves. With both honest, skipping the reports
// changes no result: every node the policy might act on still reports at
// its grid time.
//
// The engine asks again after calls into the policy, when a node may
// doze or while nodes doze, and only while heartbeats are regular: each node at its own grid times, all nodes up
// (no out-of-band heartbeats, no failures), so that consecutive
// heartbeats of the cluster are always at least interval/nodes apart and
// a policy clock capped at that (delay scheduling's) sees the same gaps
// with or without the skipped reports.
type Quieter interface {
	WantsSlots(k TaskKind, v *View) bool
	QuietUntil(v *View) Time
}

// QuietVersioner is a Quieter that can tell cheaply that its answers
// have not changed: QuietVersion grows whenever WantsSlots or QuietUntil
// might answer otherwise (for a Quieter whose answers depend on its own
// state only, not on the time or the view). While nodes doze the engine
// asks again after nearly every event; an unchanged version spares it the
// questions.
type QuietVersioner interface {
	QuietVersion() uint64
}

// TaskKind is Map or Reduce.
type TaskKind uint8

// Task kinds.
const (
	Map TaskKind = iota
	Reduce
)

func (k TaskKind) String() string {
	if k == Map {
		return "map"
	}
	return "reduce"
}

// TaskRef names one task: the job's index in the trace, its kind and its
// index among the job's tasks of that kind.
type TaskRef struct {
	Job   int32
	Kind  TaskKind
	Index int32
}

func (t TaskRef) String() string { return fmt.Sprintf("job %d %s %d", t.Job, t.Kind, t.Index) }

// EventKind says what an Event reports.
type EventKind uint8

// Event kinds.
const (
	JobArrived      EventKind = iota // Job was submitted
	TaskStarted                      // Task launched on Node (by the policy)
	TaskFinished                     // Task completed on Node
	TaskSuspended                    // Task suspended on Node (by the policy)
	TaskResumed                      // Task resumed on Node (by the policy)
	TaskKilled                       // Task killed on Node (by the policy); its work is lost
	TaskLost                         // Task lost with its failed Node; it is pending again
	ReducesEligible                  // Job reached slow-start: its reduces may launch
	MapsDone                         // Job's last map finished
	JobFinished                      // Job's last task finished
	NodeFailed                       // Node went down
	NodeRecovered                    // Node came back, empty
)

var eventNames = [...]string{"job-arrived", "task-started", "task-finished", "task-suspended",
	"task-resumed", "task-killed", "task-lost", "reduces-eligible", "maps-done", "job-finished",
	"node-failed", "node-recovered"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", k)
}

// Event reports one change of the cluster. Job is set for job and task
// events, Task for task events, Node for task and node events.
type Event struct {
	Kind EventKind
	Time Time
	Job  int32
	Task TaskRef
	Node int32
}

// Locality of a map task relative to the node it runs on.
type Locality int8

// Locality levels, from best to worst, and NoInput.
const (
	NodeLocal Locality = iota
	RackLocal
	OffRack
	// NoInput is the locality of a map whose job reads no input data
	// (map_input_bytes 0, as in an SWF log): it has no block, so it runs
	// at its trace duration on any node. View.PendingMap offers such a
	// map as NodeLocal, so that no policy waits for a better node; the
	// task itself records NoInput, and the job's node-local, rack-local
	// and off-rack counts leave it out.
	NoInput
)

func (l Locality) String() string {
	switch l {
	case NodeLocal:
		return "node-local"
	case RackLocal:
		return "rack-local"
	case NoInput:
		return "no-input"
	}
	return "off-rack"
}
