package schedulers

import (
	"cmp"
	"slices"

	"sojourn/replay"
)

// Preemption of the oracle baselines (see Oracle): targets from the key
// order, and suspension or kill of tasks of jobs above their target.

// targets water-fills the slots of kind k group by group, in order, and
// returns per order position the slots allotted.
func (o *Oracle) targets(v *replay.View, k replay.TaskKind) []int32 {
	o.demand = o.demand[:0]
	for _, j := range o.order {
		jv := v.Job(j)
		d := jv.Running(k) + jv.Suspended(k)
		if k == replay.Map || jv.ReducesEligible() {
			d += jv.Pending(k)
		}
		o.demand = append(o.demand, int32(d))
	}
	o.target = slices.Grow(o.target[:0], len(o.order))[:len(o.order)]
	budget := int32(v.Slots(k))
	for g := 0; g+1 < len(o.groups); g++ {
		lo, hi := o.groups[g], o.groups[g+1]
		var used int32
		used, o.sorted = waterFill(o.demand[lo:hi], budget, o.target[lo:hi], o.sorted)
		budget -= used
	}
	return o.target
}

// waterFill shares budget slots max-min fairly among jobs with the given
// demands, writes each job's share to out and returns the slots used. The
// slots left after the equal level go one each to the first jobs (in
// their given order) still short of their demand.
// scratch is reused for the sort (it may be nil).
func waterFill(demand []int32, budget int32, out []int32, scratch []int32) (int32, []int32) {
	byDemand := scratch[:0]
	for i := range demand {
		byDemand = append(byDemand, int32(i))
		out[i] = -1
	}
	slices.SortFunc(byDemand, func(a, b int32) int { return cmp.Or(cmp.Compare(demand[a], demand[b]), cmp.Compare(a, b)) })
	left, rest := max(budget, 0), int32(len(demand))
	for _, x := range byDemand {
		if demand[x] > left/rest {
			break
		}
		out[x] = demand[x]
		left -= demand[x]
		rest--
	}
	if rest > 0 {
		// Every job left wants more than the level.
		level := left / rest
		extra := left - level*rest
		for p := range out {
			if out[p] < 0 {
				out[p] = level
				if extra > 0 {
					out[p]++
					extra--
				}
			}
		}
		left = 0
	}
	return max(budget, 0) - left, byDemand
}

// preempt frees slots of kind k on this full node for jobs below their
// target, taking them from the job latest in order above its target.
func (o *Oracle) preempt(hb *replay.Heartbeat, k replay.TaskKind) error {
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		target := o.targets(hb.View, k)
		needy := -1
		for i, j := range o.order {
			jv := hb.Job(j)
			if target[i] <= int32(jv.Running(k)) {
				continue
			}
			if _, ok := oldestSuspended(hb, j, k); ok || o.canLaunch(hb, k, j) {
				needy = i
				break
			}
		}
		if needy < 0 {
			return nil
		}
		victim, ok := o.victim(hb, k, target, needy)
		if !ok {
			return nil
		}
		switch o.o.preempt[k] {
		case "eager":
			if !hb.CanSuspend() {
				return nil // past the node's cap: wait
			}
			if err := hb.Suspend(victim); err != nil {
				return err
			}
		case "kill":
			if err := hb.Kill(victim); err != nil {
				return err
			}
		}
		if ok, err := o.serve(hb, k, o.order[needy]); err != nil || !ok {
			return err
		}
	}
	return nil
}

// canLaunch reports whether job j has a pending task of kind k that it may
// launch on this node now.
func (o *Oracle) canLaunch(hb *replay.Heartbeat, k replay.TaskKind, j int32) bool {
	if k == replay.Reduce {
		_, ok := hb.PendingReduce(j)
		return ok
	}
	_, _, ok := hb.PendingMap(j, hb.Node(), o.jobs[j].wait.level(o.delay, hb.Now()))
	return ok
}

// victim is the youngest task of kind k on this node of the latest job in
// order, after position needy, that holds more than its target.
func (o *Oracle) victim(hb *replay.Heartbeat, k replay.TaskKind, target []int32, needy int) (replay.TaskRef, bool) {
	for i := len(o.order) - 1; i > needy; i-- {
		j := o.order[i]
		if target[i] >= int32(hb.Job(j).Running(k)) {
			continue
		}
		var best replay.TaskRef
		found := false
		for _, r := range hb.Running() {
			if r.Job == j && r.Kind == k && (!found || olderTask(hb.View, best, r)) {
				best, found = r, true
			}
		}
		if found {
			return best, true
		}
	}
	return replay.TaskRef{}, false
}

// WantsBusyHeartbeats implements replay.Preempter: full nodes report while
// some job below its target has work and another holds more than its
// target, in a kind the policy preempts (by suspension only while some
// node may hold one more suspended task). The answer is cached until the
// next event or heartbeat. (Under las, a job may move to a higher level of
// attained service between events; silent full nodes notice it at the
// next event that wakes them.)
func (o *Oracle) WantsBusyHeartbeats(v *replay.View) bool {
	if o.o.preempt == [2]string{"wait", "wait"} {
		return false
	}
	if !o.wantDirty {
		return o.want
	}
	o.wantDirty, o.want = false, false
	o.sortJobs()
	for k := replay.Map; k <= replay.Reduce && !o.want; k++ {
		if o.o.preempt[k] == "wait" || o.o.preempt[k] == "eager" && o.roomy == 0 {
			continue
		}
		target := o.targets(v, k)
		needy := false
		for i, j := range o.order {
			jv := v.Job(j)
			r := int32(jv.Running(k))
			launchable := jv.Pending(k) > 0 && (k == replay.Map || jv.ReducesEligible())
			if target[i] > r && (jv.Suspended(k) > 0 || launchable) {
				needy = true
			} else if needy && target[i] < r {
				o.want = true
				break
			}
		}
	}
	return o.want
}
