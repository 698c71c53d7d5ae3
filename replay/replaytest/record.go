package replaytest

import (
	"fmt"

	"sojourn/replay"
)

// Action is one thing a policy did to a task.
type Action struct {
	Time replay.Time
	Node int32
	Kind replay.EventKind // TaskStarted, TaskSuspended, TaskResumed or TaskKilled
	Task replay.TaskRef
}

var actionNames = map[replay.EventKind]string{
	replay.TaskStarted: "launch", replay.TaskSuspended: "suspend",
	replay.TaskResumed: "resume", replay.TaskKilled: "kill",
}

// String reads "12.5 node 0 launch job 1 map 3".
func (a Action) String() string {
	return fmt.Sprintf("%g node %d %s %s", a.Time.Sec(), a.Node, actionNames[a.Kind], a.Task)
}

// Log is the ordered list of a policy's actions.
type Log struct {
	Actions []Action
}

// Count returns how many actions of kind k the log holds.
func (l *Log) Count(k replay.EventKind) int {
	n := 0
	for _, a := range l.Actions {
		if a.Kind == k {
			n++
		}
	}
	return n
}

// Record wraps s so that every task it launches, suspends, resumes or
// kills is appended to the returned log, in the order the engine applied
// them. The wrapper implements replay.Starter and replay.Preempter exactly
// when s does, so the engine drives it as it would drive s; it counts the
// resources s counts (replay.ResourceChooser: a policy that is not one
// counts them all, as the wrapper's Counts then does) and answers as s
// does when nodes may doze (replay.Quieter: a policy that is not one
// wants every slot, so that no node dozes) and when the instant's events
// are applied (replay.Decider: a policy that is not one decides nothing
// then).
func Record(s replay.Scheduler) (replay.Scheduler, *Log) {
	r := &recorder{s: s, log: &Log{}}
	start, _ := s.(replay.Starter)
	pre, _ := s.(replay.Preempter)
	am, _ := s.(replay.AMScheduler)
	inc, _ := s.(replay.Incrementer)
	switch {
	case start != nil && pre != nil && am != nil && inc != nil:
		return &recordingYARN{recordingStarterPreempter{recorder: r, start: start, pre: pre}, am, inc}, r.log
	case start != nil && pre != nil && am != nil:
		return &recordingAM{recordingStarterPreempter{recorder: r, start: start, pre: pre}, am}, r.log
	case start != nil && pre != nil:
		return &recordingStarterPreempter{recorder: r, start: start, pre: pre}, r.log
	case start != nil:
		return &recordingStarter{recorder: r, start: start}, r.log
	case pre != nil:
		return &recordingPreempter{recorder: r, pre: pre}, r.log
	}
	return r, r.log
}

type recorder struct {
	s   replay.Scheduler
	log *Log
}

func (r *recorder) Name() string { return r.s.Name() }

func (r *recorder) OnEvent(ev replay.Event, v *replay.View) {
	if _, ok := actionNames[ev.Kind]; ok {
		r.log.Actions = append(r.log.Actions, Action{Time: ev.Time, Node: ev.Node, Kind: ev.Kind, Task: ev.Task})
	}
	r.s.OnEvent(ev, v)
}

func (r *recorder) OnHeartbeat(hb *replay.Heartbeat) error { return r.s.OnHeartbeat(hb) }

// Counts implements replay.ResourceChooser as s does.
func (r *recorder) Counts(resource string) bool {
	if c, ok := r.s.(replay.ResourceChooser); ok {
		return c.Counts(resource)
	}
	return true
}

// WantsSlots and QuietUntil implement replay.Quieter as s does.
func (r *recorder) WantsSlots(k replay.TaskKind, v *replay.View) bool {
	if q, ok := r.s.(replay.Quieter); ok {
		return q.WantsSlots(k, v)
	}
	return true
}

func (r *recorder) QuietUntil(v *replay.View) replay.Time {
	if q, ok := r.s.(replay.Quieter); ok {
		return q.QuietUntil(v)
	}
	return 0
}

// Decide implements replay.Decider as s does.
func (r *recorder) Decide(v *replay.View) replay.Time {
	if d, ok := r.s.(replay.Decider); ok {
		return d.Decide(v)
	}
	return replay.Never
}

type recordingStarter struct {
	*recorder
	start replay.Starter
}

func (r *recordingStarter) Start(v *replay.View) error { return r.start.Start(v) }

type recordingPreempter struct {
	*recorder
	pre replay.Preempter
}

func (r *recordingPreempter) WantsBusyHeartbeats(v *replay.View) bool {
	return r.pre.WantsBusyHeartbeats(v)
}

type recordingStarterPreempter struct {
	*recorder
	start replay.Starter
	pre   replay.Preempter
}

func (r *recordingStarterPreempter) Start(v *replay.View) error { return r.start.Start(v) }

func (r *recordingStarterPreempter) WantsBusyHeartbeats(v *replay.View) bool {
	return r.pre.WantsBusyHeartbeats(v)
}

// recordingYARN records a YARN policy that chooses ApplicationMasters
// and rounds requests to its own increment (yarn-fair).
type recordingYARN struct {
	recordingStarterPreempter
	am  replay.AMScheduler
	inc replay.Incrementer
}

func (r *recordingYARN) ChooseAM(n int32, v *replay.View) int32 { return r.am.ChooseAM(n, v) }

func (r *recordingYARN) AllocationIncrement() (int64, int64) { return r.inc.AllocationIncrement() }

// recordingAM records a YARN policy that chooses ApplicationMasters and
// rounds requests to the minimum allocation (yarn-capacity).
type recordingAM struct {
	recordingStarterPreempter
	am replay.AMScheduler
}

func (r *recordingAM) ChooseAM(n int32, v *replay.View) int32 { return r.am.ChooseAM(n, v) }
