package yarnfifo

import (
	"fmt"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
)

// FIFO is YARN's FifoScheduler (see the package documentation).
type FIFO struct {
	// ready holds the arrived, unfinished jobs that may have a container
	// to ask for, in queue order (order.FIFO); in marks them by job. A job
	// found with nothing to launch leaves it during a heartbeat's scan
	// and comes back with the event that gives it a task again (its
	// arrival, slow-start, a kill).
	ready []int32
	in    []bool
}

var (
	_ replay.Scheduler       = (*FIFO)(nil)
	_ replay.Starter         = (*FIFO)(nil)
	_ replay.ResourceChooser = (*FIFO)(nil)
)

// Name is the policy's name in the registry and on the command line.
const Name = "yarn-fifo"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:           Name,
	Summary:        "YARN FifoScheduler on containers: jobs by priority then submit time, each given containers on a node while they fit (maps node-local, rack-local, off-switch, then reduces), memory only",
	MayStarve:      true, // a job waits for every earlier one
	ContainersOnly: true,
	New:            func(*policy.Settings) (replay.Scheduler, error) { return &FIFO{}, nil },
}

// Name implements replay.Scheduler.
func (f *FIFO) Name() string { return Name }

// Counts implements replay.ResourceChooser: the FifoScheduler's
// DefaultResourceCalculator counts memory alone.
func (f *FIFO) Counts(resource string) bool { return resource == replay.ResMemoryMB }

// Start implements replay.Starter: the policy schedules containers only.
func (f *FIFO) Start(v *replay.View) error {
	if v.Model() != replay.ContainerModel {
		return fmt.Errorf("%s schedules YARN containers: run it in the container model (yarn), not with %s", Name, v.Model())
	}
	f.in = make([]bool, v.Jobs())
	return nil
}

// OnEvent implements replay.Scheduler: a job that may have a task to
// launch again joins the ready list.
func (f *FIFO) OnEvent(ev replay.Event, v *replay.View) {
	switch ev.Kind {
	case replay.JobArrived, replay.ReducesEligible, replay.TaskKilled, replay.TaskLost:
		if f.in[ev.Job] || v.Job(ev.Job).Done() {
			return
		}
		f.in[ev.Job] = true
		i, _ := slices.BinarySearchFunc(f.ready, ev.Job, func(a, b int32) int { return order.FIFO(v, a, b) })
		f.ready = slices.Insert(f.ready, i, ev.Job)
	}
}

// OnHeartbeat implements replay.Scheduler: FifoScheduler.assignContainers.
func (f *FIFO) OnHeartbeat(hb *replay.Heartbeat) error {
	for i := 0; i < len(f.ready) && hb.Free(replay.Map) > 0; {
		j := f.ready[i]
		jv := hb.Job(j)
		maps, reduces := jv.Launchable(replay.Map), jv.Launchable(replay.Reduce)
		if !maps && !reduces {
			f.in[j] = false
			f.ready = slices.Delete(f.ready, i, i+1)
			continue
		}
		i++
		if maps {
			n, err := f.launchMaps(hb, j)
			if err != nil {
				return err
			}
			if n == 0 {
				continue // out of order w.r.t. its requests' priorities
			}
		}
		for jv.Launchable(replay.Reduce) && hb.Fits(j, replay.Reduce) {
			t, _ := hb.PendingReduce(j)
			if err := hb.Launch(replay.TaskRef{Job: j, Kind: replay.Reduce, Index: t}); err != nil {
				return err
			}
		}
	}
	return nil
}

// launchMaps launches job j's pending maps on the node while their
// container fits, the best locality first, and returns how many.
func (f *FIFO) launchMaps(hb *replay.Heartbeat, j int32) (int, error) {
	n := 0
	for hb.Job(j).Pending(replay.Map) > 0 && hb.Fits(j, replay.Map) {
		t, _, ok := hb.PendingMap(j, hb.Node(), replay.OffRack)
		if !ok {
			break
		}
		if err := hb.Launch(replay.TaskRef{Job: j, Kind: replay.Map, Index: t}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
