package exec

import (
	"encoding/json"
	"fmt"
	"strconv"

	"sojourn/internal/jsondup"
	"sojourn/replay"
)

// Version is the protocol's version, stated by both sides in the
// handshake. docs/exec-protocol.md describes every message.
const Version = 1

// reply is any line the child sends: the handshake's "ready", or, during a
// decision, actions to apply in order followed by an optional query. A
// line with no query ends the decision.
type reply struct {
	Type     string   `json:"type"`
	Protocol int      `json:"protocol"`
	Name     string   `json:"name"`
	Options  []string `json:"options"`
	Preempts bool     `json:"preempts"`
	SkipIdle bool     `json:"skip_idle"`

	Actions []action `json:"actions"`
	Busy    *bool    `json:"busy"`
	busy    bool     // where fastParse points Busy

	Query       string `json:"query"`
	Job         int32  `json:"job"`
	Node        int32  `json:"node"`
	Kind        string `json:"kind"`
	Task        int32  `json:"task"`
	MaxLocality string `json:"max_locality"`
}

// action is one of launch, kill, suspend or resume of a task, or
// launch_best: launch the task the engine's picker offers (what a
// pending_map or pending_reduce query would answer).
type action struct {
	Op          string `json:"op"`
	Job         int32  `json:"job"`
	Kind        string `json:"kind"`
	Task        int32  `json:"task"`
	MaxLocality string `json:"max_locality"`
}

// parse decodes line into r, reset first. Missing numbers are -1, so that
// a forgotten field is an error, not job 0. The usual lines take the fast
// path (fastParse); the others go through encoding/json.
func (r *reply) parse(line []byte) error {
	r.reset()
	if r.fastParse(line) {
		return nil
	}
	r.reset()
	if err := json.Unmarshal(line, r); err != nil {
		return err
	}
	if k, _, col := jsondup.Find(line); k != "" {
		return fmt.Errorf("key %q given twice (column %d)", k, col)
	}
	return nil
}

// reset empties r, keeping the actions' storage.
func (r *reply) reset() {
	*r = reply{Job: -1, Node: -1, Task: -1, Actions: r.Actions[:0]}
}

// UnmarshalJSON decodes an action whose missing numbers are -1.
func (a *action) UnmarshalJSON(b []byte) error {
	type plain action
	p := plain{Job: -1, Task: -1}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = action(p)
	return nil
}

// parseKind reads a task kind: "map" or "reduce".
func parseKind(s string) (replay.TaskKind, bool) {
	switch s {
	case "map":
		return replay.Map, true
	case "reduce":
		return replay.Reduce, true
	}
	return 0, false
}

// parseLocality reads a locality level; "" is off-rack (any).
func parseLocality(s string) (replay.Locality, bool) {
	switch s {
	case "node-local":
		return replay.NodeLocal, true
	case "rack-local":
		return replay.RackLocal, true
	case "off-rack", "":
		return replay.OffRack, true
	}
	return 0, false
}

// The encoders below append one JSON value to b, with no allocation.

func appendKV(b []byte, key string, v int64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, v, 10)
}

func appendPair(b []byte, key string, a, c int) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":[`...)
	b = strconv.AppendInt(b, int64(a), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(c), 10)
	return append(b, ']')
}

func appendFloat(b []byte, key string, f float64) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

func appendBool(b []byte, key string, v bool) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendBool(b, v)
}

func appendString(b []byte, key, s string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendQuoted(b, s)
}

// appendQuoted appends s as a JSON string.
func appendQuoted(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func appendIntRaw(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }

// appendTask appends {"job":J,"kind":K,"task":T}.
func appendTask(b []byte, t replay.TaskRef) []byte {
	b = append(b, `{"job":`...)
	b = strconv.AppendInt(b, int64(t.Job), 10)
	b = append(b, `,"kind":"`...)
	b = append(b, t.Kind.String()...)
	b = append(b, `","task":`...)
	b = strconv.AppendInt(b, int64(t.Index), 10)
	return append(b, '}')
}

func appendTasks(b []byte, key string, ts []replay.TaskRef) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, t := range ts {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTask(b, t)
	}
	return append(b, ']')
}

// appendEvent appends one event: its kind and time, and the fields its
// kind has. A job's arrival carries what the job is (appendJobInfo).
func appendEvent(b []byte, ev replay.Event, v *replay.View) []byte {
	b = append(b, `{"event":"`...)
	b = append(b, ev.Kind.String()...)
	b = append(b, '"')
	b = appendKV(b, "time", int64(ev.Time))
	switch ev.Kind {
	case replay.NodeFailed, replay.NodeRecovered:
		return append(appendKV(b, "node", int64(ev.Node)), '}')
	case replay.TaskStarted, replay.TaskFinished, replay.TaskSuspended, replay.TaskResumed,
		replay.TaskKilled, replay.TaskLost:
		b = appendKV(b, "job", int64(ev.Job))
		b = append(b, `,"kind":"`...)
		b = append(b, ev.Task.Kind.String()...)
		b = append(b, '"')
		b = appendKV(b, "task", int64(ev.Task.Index))
		return append(appendKV(b, "node", int64(ev.Node)), '}')
	case replay.JobArrived:
		b = appendKV(b, "job", int64(ev.Job))
		b = append(b, `,"info":`...)
		return append(appendJobInfo(b, v.Job(ev.Job)), '}')
	}
	return append(appendKV(b, "job", int64(ev.Job)), '}')
}

// appendJobInfo appends what a job is, fixed from its arrival: its tasks,
// priority, submit time, pool, true work (as JobView.TrueWork) and, when
// the trace has one, the user's estimate of its work.
func appendJobInfo(b []byte, j replay.JobView) []byte {
	b = append(b, `{"maps":`...)
	b = strconv.AppendInt(b, int64(j.Tasks(replay.Map)), 10)
	b = appendKV(b, "reduces", int64(j.Tasks(replay.Reduce)))
	b = appendKV(b, "priority", int64(j.Priority()))
	b = appendKV(b, "submit", int64(j.Submit()))
	b = appendString(b, "pool", j.Pool())
	if tj := j.Trace(); tj != nil {
		b = appendString(b, "name", tj.Name)
		b = append(b, `,"true_work":[`...)
		b = strconv.AppendFloat(b, j.TrueWork(replay.Map), 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendFloat(b, j.TrueWork(replay.Reduce), 'g', -1, 64)
		b = append(b, ']')
		if tj.HasEstimate {
			b = append(b, `,"user_estimate":`...)
			b = strconv.AppendFloat(b, tj.Estimate, 'g', -1, 64)
		}
	}
	return append(b, '}')
}

// appendJobView appends the answer to a "job" query: the job's counts now.
func appendJobView(b []byte, j replay.JobView) []byte {
	b = append(b, `{"job":`...)
	b = strconv.AppendInt(b, int64(j.Index()), 10)
	b = append(b, `,"info":`...)
	b = appendJobInfo(b, j)
	b = appendBool(b, "arrived", j.Arrived())
	b = appendBool(b, "done", j.Done())
	b = appendPair(b, "pending", j.Pending(replay.Map), j.Pending(replay.Reduce))
	b = appendPair(b, "running", j.Running(replay.Map), j.Running(replay.Reduce))
	b = appendPair(b, "suspended", j.Suspended(replay.Map), j.Suspended(replay.Reduce))
	b = appendPair(b, "finished", j.Finished(replay.Map), j.Finished(replay.Reduce))
	b = appendBool(b, "reduces_eligible", j.ReducesEligible())
	b = appendBool(b, "maps_done", j.MapsDone())
	if t, ok := j.FirstLaunch(); ok {
		b = appendKV(b, "first_launch", int64(t))
	}
	return append(b, '}')
}

var stateNames = [...]string{"pending", "running", "suspended", "done"}

// appendTaskView appends the answer to a "task" query.
func appendTaskView(b []byte, t replay.TaskView) []byte {
	st := 0
	switch {
	case t.Running():
		st = 1
	case t.Suspended():
		st = 2
	case t.Done():
		st = 3
	}
	b = append(b, `{"state":"`...)
	b = append(b, stateNames[st]...)
	b = append(b, '"')
	b = appendKV(b, "node", int64(t.Node()))
	b = appendKV(b, "attempts", int64(t.Attempts()))
	b = appendKV(b, "attempt_start", int64(t.AttemptStart()))
	b = appendKV(b, "run_time", int64(t.RunTime()))
	if t.Done() {
		b = appendKV(b, "finish", int64(t.Finish()))
	}
	if t.Running() || t.Suspended() {
		b = appendString(b, "locality", t.Locality().String())
	}
	return append(b, '}')
}
