package exec

import (
	"fmt"

	"sojourn/replay"
)

// answer appends the answer to query m.
func (x *Exec) answer(b []byte, hb *replay.Heartbeat, m *reply) ([]byte, error) {
	job := func() (replay.JobView, error) {
		if m.Job < 0 || int(m.Job) >= hb.Jobs() || !hb.Job(m.Job).Arrived() {
			return replay.JobView{}, fmt.Errorf("query %q: job %d has not arrived", m.Query, m.Job)
		}
		return hb.Job(m.Job), nil
	}
	switch m.Query {
	case "pending_map":
		if _, err := job(); err != nil {
			return nil, err
		}
		node := m.Node
		if node < 0 {
			node = hb.Node()
		}
		if int(node) >= hb.Nodes() {
			return nil, fmt.Errorf("query %q: no node %d", m.Query, node)
		}
		worst, ok := parseLocality(m.MaxLocality)
		if !ok {
			return nil, fmt.Errorf("query %q: max_locality %q is not node-local, rack-local or off-rack", m.Query, m.MaxLocality)
		}
		t, loc, ok := hb.PendingMap(m.Job, node, worst)
		if !ok {
			return append(b, `{"task":-1}`...), nil
		}
		b = append(b, `{"task":`...)
		b = appendIntRaw(b, int(t))
		b = appendString(b, "locality", loc.String())
		return append(b, '}'), nil
	case "pending_reduce":
		if _, err := job(); err != nil {
			return nil, err
		}
		t, ok := hb.PendingReduce(m.Job)
		if !ok {
			t = -1
		}
		b = append(b, `{"task":`...)
		b = appendIntRaw(b, int(t))
		return append(b, '}'), nil
	case "job":
		j, err := job()
		if err != nil {
			return nil, err
		}
		return appendJobView(b, j), nil
	case "task":
		j, err := job()
		if err != nil {
			return nil, err
		}
		k, ok := parseKind(m.Kind)
		if !ok || m.Task < 0 || int(m.Task) >= j.Tasks(k) {
			return nil, fmt.Errorf("query %q: job %d has no %s task %d", m.Query, m.Job, m.Kind, m.Task)
		}
		return appendTaskView(b, hb.Task(replay.TaskRef{Job: m.Job, Kind: k, Index: m.Task})), nil
	case "node":
		b = append(b, `{"node":`...)
		b = appendIntRaw(b, int(hb.Node()))
		b = appendKV(b, "rack", int64(hb.Rack(hb.Node())))
		b = appendPair(b, "free", hb.Free(replay.Map), hb.Free(replay.Reduce))
		b = appendTasks(b, "running", hb.Running())
		b = appendTasks(b, "suspended", hb.SuspendedHere())
		b = appendBool(b, "can_suspend", hb.CanSuspend())
		return append(b, '}'), nil
	case "cluster":
		b = append(b, `{"time":`...)
		b = appendIntRaw(b, int(hb.Now()))
		b = appendKV(b, "nodes", int64(hb.Nodes()))
		b = appendPair(b, "slots", hb.Slots(replay.Map), hb.Slots(replay.Reduce))
		b = appendPair(b, "demand", hb.Demand(replay.Map), hb.Demand(replay.Reduce))
		b = appendKV(b, "jobs", int64(hb.Jobs()))
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("unknown query %q (want pending_map, pending_reduce, job, task, node or cluster)", m.Query)
}
