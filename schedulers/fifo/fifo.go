package fifo

import (
	"fmt"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
	"sojourn/schedulers/internal/policy"
)

// FIFO is Hadoop 1.x's default scheduler, JobQueueTaskScheduler: one queue
// of jobs in order of priority (VERY_HIGH first), then submit time, then
// trace order, served in that order on every TaskTracker heartbeat.
//
// Per heartbeat, as in JobQueueTaskScheduler.assignTasks:
//
//   - Maps: for each map slot the tracker may fill, the jobs are scanned in
//     queue order and the first one with a pending map gets the slot: a
//     node-local or rack-local map if it has one, otherwise an off-rack map,
//     which ends the heartbeat's map assignment (at most one off-rack map
//     per heartbeat, "to prevent TaskTrackers from stealing local-tasks
//     from other TaskTrackers").
//   - Reduces: at most one reduce per heartbeat, from the first job in
//     queue order that has one to launch.
//   - Load factor (option load-factor, on in Hadoop): a tracker runs at most
//     ceil(loadFactor × its slots) tasks of a kind, where loadFactor is the
//     queue's remaining tasks of that kind (not yet finished, reduces only
//     of jobs past slow-start) divided by the cluster's slots of that kind.
//     An underloaded cluster thus spreads its tasks over the trackers.
//   - Padding (option capacity-pad, Hadoop's
//     mapred.jobtracker.taskalloc.capacitypad = 0.01): when the cluster's
//     running tasks of a kind plus a padding of min(tracker slots,
//     ⌊pad × tasks of the queued jobs⌋) reach the cluster's slots, a
//     heartbeat launches at most one map and offers reduces only to the
//     first job with reduces. As in Hadoop, only jobs with reduces count
//     towards the padding, and there is none with 3 trackers or fewer.
//
// Tasks never wait for locality: a job's map goes to the first free slot.
type FIFO struct {
	loadFactor bool
	pad        float64

	queue []int32 // arrived, unfinished jobs in queue order
	// wants[k] is the subsequence of the queue that may have tasks of kind
	// k to launch, so that a heartbeat does not walk past every job whose
	// tasks all run; withReduce is the one of jobs with reduces.
	wants      [2]order.Subset
	withReduce order.Subset
	// remaining counts the queue's tasks not yet finished (reduces of
	// jobs past slow-start only), for the load factor.
	remaining [2]int
	// needed counts the tasks of queued jobs that have reduces, for the
	// padding; withReduces counts those jobs.
	needed      [2]int
	withReduces int
	running     [2]int // tasks running in the cluster
	alive       int    // trackers up
}

var (
	_ replay.Scheduler = (*FIFO)(nil)
	_ replay.Starter   = (*FIFO)(nil)
)

// fifoOptions are FIFO's options with their defaults.
var fifoOptions = []policy.Option{
	{Name: "load-factor", Default: "true",
		Usage: "cap a tracker's running tasks of a kind at ceil(remaining tasks / cluster slots × its slots) (Hadoop: always on)"},
	{Name: "capacity-pad", Default: "0.01",
		Usage: "mapred.jobtracker.taskalloc.capacitypad: fraction of the queued jobs' tasks kept as padding; past it a heartbeat launches at most one map (0: off)"},
}

// Name is the policy's name in the registry and on the command line.
const Name = "fifo"

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:      Name,
	Summary:   "Hadoop 1.x FIFO (JobQueueTaskScheduler): priority then submit time; at most one off-rack map and one reduce per heartbeat",
	Options:   fifoOptions,
	MayStarve: true, // a job waits for every earlier one
	New:       func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// New builds FIFO from its settings (see the policy.Option list).
func New(s *policy.Settings) (*FIFO, error) {
	lf := s.Bool("load-factor")
	pad := s.Float("capacity-pad")
	if err := s.Err(); err != nil {
		return nil, err
	}
	if !(pad >= 0 && pad <= 1) {
		return nil, fmt.Errorf("%s.capacity-pad: %v; want a fraction in [0, 1]", s.Policy, pad)
	}
	return &FIFO{loadFactor: lf, pad: pad}, nil
}

// Name implements replay.Scheduler.
func (f *FIFO) Name() string { return Name }

// Start implements replay.Starter.
func (f *FIFO) Start(v *replay.View) error {
	f.alive = v.Nodes()
	return nil
}

// OnEvent implements replay.Scheduler.
func (f *FIFO) OnEvent(ev replay.Event, v *replay.View) {
	k := ev.Task.Kind
	switch ev.Kind {
	case replay.JobArrived:
		jv := v.Job(ev.Job)
		i, _ := slices.BinarySearchFunc(f.queue, ev.Job, func(a, b int32) int { return order.FIFO(v, a, b) })
		f.queue = slices.Insert(f.queue, i, ev.Job)
		f.remaining[replay.Map] += jv.Tasks(replay.Map)
		f.wants[replay.Map].Add(v, ev.Job)
		if nr := jv.Tasks(replay.Reduce); nr > 0 {
			f.wants[replay.Reduce].Add(v, ev.Job)
			f.withReduce.Add(v, ev.Job)
			f.withReduces++
			f.needed[replay.Map] += jv.Tasks(replay.Map)
			f.needed[replay.Reduce] += nr
		}
	case replay.ReducesEligible:
		jv := v.Job(ev.Job)
		f.remaining[replay.Reduce] += jv.Tasks(replay.Reduce) - jv.Finished(replay.Reduce)
	case replay.TaskStarted:
		f.running[k]++
	case replay.TaskFinished:
		f.running[k]--
		f.remaining[k]--
	case replay.TaskLost, replay.TaskKilled:
		f.running[k]--
		f.wants[k].Add(v, ev.Job)
	case replay.JobFinished:
		if i := slices.Index(f.queue, ev.Job); i >= 0 {
			f.queue = slices.Delete(f.queue, i, i+1)
		}
		f.withReduce.Remove(ev.Job)
		if jv := v.Job(ev.Job); jv.Tasks(replay.Reduce) > 0 {
			f.withReduces--
			f.needed[replay.Map] -= jv.Tasks(replay.Map)
			f.needed[replay.Reduce] -= jv.Tasks(replay.Reduce)
		}
	case replay.NodeFailed:
		f.alive--
	case replay.NodeRecovered:
		f.alive++
	}
}

// available is how many more tasks of kind k the tracker may run under
// the load factor rule (its free slots when the rule is off).
func (f *FIFO) available(hb *replay.Heartbeat, k replay.TaskKind) int {
	slots := hb.NodeSlots(hb.Node(), k)
	busy := slots - hb.Free(k)
	limit := slots
	if f.loadFactor {
		lf := 0.0
		if total := hb.Slots(k); total > 0 {
			lf = float64(f.remaining[k]) / float64(total)
		}
		limit = min(int(math.Ceil(lf*float64(slots))), slots)
	}
	return limit - busy
}

// exceededPadding is JobQueueTaskScheduler.exceededPadding: whether the
// cluster's running tasks of kind k plus the padding reach its slots.
func (f *FIFO) exceededPadding(hb *replay.Heartbeat, k replay.TaskKind) bool {
	if f.withReduces == 0 {
		return false
	}
	slots := hb.NodeSlots(hb.Node(), k)
	padding := 0
	if f.alive > 3 {
		padding = min(slots, int(float64(f.needed[k])*f.pad))
	}
	return f.running[k]+padding >= hb.Slots(k)
}

// OnHeartbeat implements replay.Scheduler.
func (f *FIFO) OnHeartbeat(hb *replay.Heartbeat) error {
	if hb.Model() == replay.ContainerModel {
		// Reduce containers before maps, as MapReduce's ApplicationMaster
		// asks for them at a higher priority (see hfsp's OnHeartbeat).
		if err := f.assignReduce(hb); err != nil {
			return err
		}
		return f.assignMaps(hb)
	}
	if err := f.assignMaps(hb); err != nil {
		return err
	}
	return f.assignReduce(hb)
}

func (f *FIFO) assignMaps(hb *replay.Heartbeat) error {
	n := hb.Node()
	slots := f.available(hb, replay.Map)
	if slots <= 0 || hb.Demand(replay.Map) == 0 {
		return nil
	}
	padded := f.exceededPadding(hb, replay.Map)
	for range slots {
		j, ok := f.wants[replay.Map].FirstFitting(hb, replay.Map)
		if !ok {
			return nil
		}
		idx, loc, _ := hb.PendingMap(j, n, replay.OffRack)
		if err := hb.Launch(replay.TaskRef{Job: j, Kind: replay.Map, Index: idx}); err != nil {
			return err
		}
		if loc == replay.OffRack || padded {
			return nil // one off-rack map per heartbeat; or the padding is reached
		}
	}
	return nil
}

func (f *FIFO) assignReduce(hb *replay.Heartbeat) error {
	if f.available(hb, replay.Reduce) <= 0 || hb.Demand(replay.Reduce) == 0 {
		return nil
	}
	j, ok := f.wants[replay.Reduce].FirstFitting(hb, replay.Reduce)
	if f.exceededPadding(hb, replay.Reduce) && len(f.withReduce.Jobs()) > 0 && j != f.withReduce.Jobs()[0] {
		return nil // past the padding only the first job with reduces is served
	}
	if !ok {
		return nil
	}
	idx, _ := hb.PendingReduce(j)
	return hb.Launch(replay.TaskRef{Job: j, Kind: replay.Reduce, Index: idx})
}
