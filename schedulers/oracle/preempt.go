package oracle

import (
	"cmp"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// Preemption of the oracle baselines (see Oracle): targets from the key
// order, and suspension or kill of tasks of jobs above their target.

// targets water-fills the slots of kind k group by group, in order, and
// returns per order position the slots allotted. The targets depend only
// on the order, the demands and the slots, and a demand changes only at an
// event of its job (not at a launch, suspension, resumption or kill, which
// move a task between running, suspended and launchable), so they are
// computed again only after one of these changed.
func (o *Oracle) targets(v *replay.View, k replay.TaskKind) []int32 {
	slots := int32(v.Slots(k))
	if o.demandVer[k] != o.orderVer {
		o.demand[k] = o.demand[k][:0]
		for _, j := range o.order {
			o.demand[k] = append(o.demand[k], o.jobs[j].demand[k])
		}
		o.demandVer[k] = o.orderVer
	}
	if o.targetVer[k] != o.orderVer || o.targetStale[k] || o.targetSlots[k] != slots {
		o.targetVer[k], o.targetStale[k], o.targetSlots[k] = o.orderVer, false, slots
		demand := o.demand[k]
		target := slices.Grow(o.target[k][:0], len(demand))[:len(demand)]
		o.target[k] = target
		budget := slots
		// Once the slots run out, every later job's target is 0: under a
		// backlog that is most of the order.
		end := len(target)
		if !o.rank.shared {
			// Groups of one: water-filling gives each its demand while
			// slots are left.
			for i, d := range demand {
				if budget <= 0 {
					clear(target[i:])
					end = i
					break
				}
				t := min(d, budget)
				target[i] = t
				budget -= t
			}
		} else {
			if o.byDemandVer[k] != o.orderVer {
				o.byDemand[k] = slices.Grow(o.byDemand[k][:0], len(demand))[:len(demand)]
				o.byDemandVer[k], o.byDemandGroups[k] = o.orderVer, 0
			}
			for g := 0; g+1 < len(o.groups); g++ {
				lo, hi := o.groups[g], o.groups[g+1]
				if budget <= 0 {
					clear(target[lo:])
					end = int(lo)
					break
				}
				d, by := demand[lo:hi], o.byDemand[k][lo:hi]
				switch {
				case hi-lo == 1:
					// A group of one (most of las's): its demand while
					// slots are left, as waterLevel gives it, with nothing
					// to sort.
					target[lo] = min(d[0], budget)
					budget -= target[lo]
				case g >= o.byDemandGroups[k]:
					o.packed = sortByDemandPacked(d, by, o.packed)
					budget -= waterLevel(d, budget, target[lo:hi], by)
				default:
					resortByDemand(d, by)
					budget -= waterLevel(d, budget, target[lo:hi], by)
				}
				o.byDemandGroups[k] = max(o.byDemandGroups[k], g+1)
			}
		}
		for end > 0 && target[end-1] == 0 {
			end--
		}
		o.targetEnd[k] = int32(end)
	}
	if o.verify != nil {
		o.verify(o, v, nil, "targets", k)
	}
	return o.target[k]
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
	}
	sortByDemand(demand, byDemand)
	return waterLevel(demand, budget, out, byDemand), byDemand
}

// sortByDemand sorts job indexes by demand, ties by index: a total order,
// so any sort gives the same.
func sortByDemand(demand []int32, by []int32) {
	slices.SortFunc(by, func(a, b int32) int { return cmp.Or(cmp.Compare(demand[a], demand[b]), cmp.Compare(a, b)) })
}

// sortByDemandPacked is sortByDemand of all the indexes of demand into
// by, sorting demand and index packed in one integer (quicker than
// through a comparison function); scratch is reused.
func sortByDemandPacked(demand []int32, by []int32, scratch []uint64) []uint64 {
	keys := scratch[:0]
	for i, d := range demand {
		keys = append(keys, uint64(d)<<32|uint64(i))
	}
	slices.Sort(keys)
	for i, x := range keys {
		by[i] = int32(uint32(x))
	}
	return keys
}

// resortByDemand is sortByDemand by insertion, for indexes sorted by the
// demands of the last call: about one pass.
func resortByDemand(demand []int32, by []int32) {
	for i := 1; i < len(by); i++ {
		x := by[i]
		p := i
		for ; p > 0 && (demand[by[p-1]] > demand[x] || demand[by[p-1]] == demand[x] && by[p-1] > x); p-- {
			by[p] = by[p-1]
		}
		by[p] = x
	}
}

// waterLevel is waterFill given the job indexes sorted by demand.
func waterLevel(demand []int32, budget int32, out []int32, byDemand []int32) int32 {
	for i := range out {
		out[i] = -1
	}
	left, rest := max(budget, 0), int32(len(demand))
	for _, x := range byDemand {
		if int64(demand[x])*int64(rest) > int64(left) { // demand[x] > left/rest, without dividing
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
	return max(budget, 0) - left
}

// preempt frees slots of kind k on this full node for jobs below their
// target, taking them from the job latest in order above its target.
// Neither the launches nor the preemptions of a heartbeat change a target,
// and only a job that may use a slot can be below its target and use this
// one (a victim, now at or below its target, is not).
func (o *Oracle) preempt(hb *replay.Heartbeat, k replay.TaskKind) error {
	for iter := 0; iter < 2*len(hb.Running())+2; iter++ {
		if o.verify != nil {
			o.verify(o, hb.View, hb, "preempt", k)
		}
		needy := o.needy(hb, k)
		if needy < 0 {
			return nil
		}
		v, ok := o.victim(hb, k, o.jobs[needy].pos)
		if !ok || !victim.Frees(hb, v, needy, k) {
			return nil
		}
		ok, err := victim.Evict(hb, v, o.o.preempt[k])
		o.repick(k, v.Job) // its running tasks fell
		if err != nil || !ok {
			return err
		}
		ok, err = o.serve(hb, k, needy)
		o.repick(k, needy)
		if err != nil || !ok {
			return err
		}
	}
	return nil
}

// needy is the first job in order below its target of kind k that has a
// task suspended on this node or one it may launch here, or -1.
func (o *Oracle) needy(hb *replay.Heartbeat, k replay.TaskKind) int32 {
	target := o.targets(hb.View, k)
	for _, j := range o.candidates(k) {
		if o.jobs[j].pos >= o.targetEnd[k] {
			break // the rest are in order after the last job with a target
		}
		if target[o.jobs[j].pos] <= int32(hb.Job(j).Running(k)) {
			continue
		}
		if _, ok := oldestSuspended(hb, j, k); ok || o.canLaunch(hb, k, j) {
			return j
		}
	}
	return -1
}

// canLaunch reports whether job j has a pending task of kind k that it may
// launch on this node now.
func (o *Oracle) canLaunch(hb *replay.Heartbeat, k replay.TaskKind, j int32) bool {
	if k == replay.Reduce {
		_, ok := hb.PendingReduce(j)
		return ok
	}
	_, _, ok := hb.PendingMap(j, hb.Node(), o.jobs[j].wait.Level(o.delay))
	return ok
}

// victim is the youngest task of kind k on this node of the latest job in
// order, after position after, that holds more than its target: found
// from the node's tasks rather than from the order.
func (o *Oracle) victim(hb *replay.Heartbeat, k replay.TaskKind, after int32) (replay.TaskRef, bool) {
	job, target := int32(-1), o.target[k]
	for _, r := range hb.Running() {
		if p := o.jobs[r.Job].pos; r.Kind == k && p > after && target[p] < int32(hb.Job(r.Job).Running(k)) {
			job, after = r.Job, p
		}
	}
	if job < 0 {
		return replay.TaskRef{}, false
	}
	var best replay.TaskRef
	found := false
	for _, r := range hb.Running() {
		if r.Job == job && r.Kind == k && (!found || olderTask(hb.View, best, r)) {
			best, found = r, true
		}
	}
	return best, true
}

// WantsBusyHeartbeats implements replay.Preempter: full nodes report while
// some job below its target has work and another holds more than its
// target, in a kind the policy preempts (by suspension only while some
// node may hold one more suspended task). The answer is cached until the
// next event or heartbeat, and per kind until the order or an event of
// that kind (or of a job or node) changes what it depends on, which relies
// on the engine asking only once a heartbeat's events are delivered, as it
// does (a policy is never re-entered). (Under las,
// a job may move to a higher level of attained service between events;
// silent full nodes notice it at the next event that wakes them. Under ps
// with a quantum they report while a job waits, so that a quantum's end is
// noticed at the next heartbeat.)
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
		if o.wishVer[k] != o.orderVer || o.wishStale[k] {
			o.wish[k] = o.wishes(v, k)
			o.wishVer[k], o.wishStale[k] = o.orderVer, false
		}
		if o.verify != nil {
			o.verify(o, v, nil, "wish", k)
		}
		o.want = o.wish[k]
	}
	return o.want
}

// wishes reports whether, in kind k, a job below its target with a task
// suspended or launchable comes in order before one above its target.
//
// With ps's time slicing, also while any job waits for a slot of kind k:
// a running job's quantum may end between events, which puts a waiting job
// first, and only heartbeats of the full nodes can then preempt for it.
func (o *Oracle) wishes(v *replay.View, k replay.TaskKind) bool {
	if o.o.rounds {
		for _, j := range o.order {
			if mayServe(v.Job(j), k) {
				return true
			}
		}
	}
	target := o.targets(v, k)
	needy := false
	for i, j := range o.order {
		jv := v.Job(j)
		r, t := int32(jv.Running(k)), target[i]
		if t > r && mayServe(jv, k) {
			needy = true
		} else if needy && t < r {
			return true
		}
	}
	return false
}
