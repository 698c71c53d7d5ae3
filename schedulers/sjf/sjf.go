// Package sjf is shortest job first: a simple size-based baseline that
// serves jobs in increasing order of their true total work, read from the
// trace as an oracle would, and never preempts. It sits beside HFSP in
// the tables to show what knowing sizes, without preemption or aging,
// already buys.
package sjf

import (
	"cmp"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
)

// Name is the policy's name in the registry and on the command line.
const Name = "sjf"

var options = []policy.Option{
	{Name: "size", Default: "work",
		Usage: "a job's size: work (its true total work in slot-seconds: map durations plus reduce shuffle and durations), tasks (its number of tasks) or estimate (the trace's user estimate of its work, user_estimate_s; its true work for a job without one)"},
}

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:      Name,
	Summary:   "shortest job first by the trace's true total work, non-preemptive: a size-based baseline without aging or preemption",
	Options:   options,
	MayStarve: true, // the largest job is served last, without aging
	New:       func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// SJF serves jobs in increasing order of size, ties by priority, submit
// time and trace order (Hadoop's FIFO order). On a heartbeat every free
// slot goes to the first job in that order with a task to launch: a map at
// the best locality the node offers (there is no delay scheduling), or a
// reduce of a job past slow-start. Running tasks are never preempted.
type SJF struct {
	byTasks    bool
	byEstimate bool
	size       []float64 // by job, set on arrival
	// wants[k] holds, in size order, the jobs that may have tasks of kind
	// k to launch.
	wants [2]order.Subset
}

var (
	_ replay.Scheduler = (*SJF)(nil)
	_ replay.Starter   = (*SJF)(nil)
)

// New builds SJF from its settings (see the option list).
func New(s *policy.Settings) (*SJF, error) {
	size := s.OneOf("size", "work", "tasks", "estimate")
	if err := s.Err(); err != nil {
		return nil, err
	}
	return &SJF{byTasks: size == "tasks", byEstimate: size == "estimate"}, nil
}

// Name implements replay.Scheduler.
func (s *SJF) Name() string { return Name }

// Start implements replay.Starter.
func (s *SJF) Start(v *replay.View) error {
	s.size = make([]float64, v.Jobs())
	for k := range s.wants {
		s.wants[k].Compare = s.compare
	}
	return nil
}

// compare orders jobs by size, then in FIFO order.
func (s *SJF) compare(v *replay.View, a, b int32) int {
	if c := cmp.Compare(s.size[a], s.size[b]); c != 0 {
		return c
	}
	return order.FIFO(v, a, b)
}

// OnEvent implements replay.Scheduler.
func (s *SJF) OnEvent(ev replay.Event, v *replay.View) {
	switch ev.Kind {
	case replay.JobArrived:
		jv := v.Job(ev.Job)
		if tj := jv.Trace(); s.byEstimate && tj != nil && tj.HasEstimate {
			s.size[ev.Job] = tj.Estimate
		} else if s.byTasks {
			s.size[ev.Job] = float64(jv.Tasks(replay.Map) + jv.Tasks(replay.Reduce))
		} else {
			s.size[ev.Job] = jv.TrueWork(replay.Map) + jv.TrueWork(replay.Reduce)
		}
		s.wants[replay.Map].Add(v, ev.Job)
		if jv.Tasks(replay.Reduce) > 0 {
			s.wants[replay.Reduce].Add(v, ev.Job)
		}
	case replay.TaskLost, replay.TaskKilled:
		s.wants[ev.Task.Kind].Add(v, ev.Job) // its task is pending again
	}
}

// OnHeartbeat implements replay.Scheduler.
func (s *SJF) OnHeartbeat(hb *replay.Heartbeat) error {
	for k := replay.Map; k <= replay.Reduce; k++ {
		for hb.Free(k) > 0 {
			j, ok := s.wants[k].FirstFitting(hb, k)
			if !ok {
				break
			}
			var idx int32
			if k == replay.Map {
				idx, _, _ = hb.PendingMap(j, hb.Node(), replay.OffRack)
			} else {
				idx, _ = hb.PendingReduce(j)
			}
			if err := hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx}); err != nil {
				return err
			}
		}
	}
	return nil
}
