package fair

import (
	"cmp"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// preempt is FairScheduler.preemptTasksIfNecessary: it picks the victims,
// which killHere kills at their trackers' next heartbeats.
func (f *Fair) preempt(v *replay.View) {
	now := v.Now()
	for k := range 2 {
		kind := replay.TaskKind(k)
		want := 0
		for _, p := range f.live {
			want += f.toPreempt(p, kind, now)
		}
		if want == 0 {
			continue
		}
		vs := f.victims[:0]
		for _, p := range f.live {
			p.left = p.running[k]
			if float64(p.running[k]) <= p.share[k] {
				continue
			}
			for _, j := range p.jobs {
				for i := range int32(v.Job(j).Tasks(kind)) {
					ref := replay.TaskRef{Job: j, Kind: kind, Index: i}
					if tv := v.Task(ref); tv.Running() {
						vs = append(vs, victim.Victim{Ref: ref, Node: tv.Node(), Attempts: tv.Attempts(), Start: tv.AttemptStart()})
					}
				}
			}
		}
		slices.SortFunc(vs, func(a, b victim.Victim) int {
			return cmp.Or(cmp.Compare(b.Start, a.Start), cmp.Compare(b.Ref.Job, a.Ref.Job), cmp.Compare(b.Ref.Index, a.Ref.Index))
		})
		for _, vi := range vs {
			p := f.jobs[vi.Ref.Job].pool
			if float64(p.left) <= p.share[k] {
				continue
			}
			f.kills[vi.Node] = append(f.kills[vi.Node], vi)
			f.nKills++
			p.left--
			if want--; want == 0 {
				break
			}
		}
		f.victims = vs
	}
}

// toPreempt is FairScheduler.tasksToPreempt for pool p.
func (f *Fair) toPreempt(p *fairPool, k replay.TaskKind, now replay.Time) int {
	n := 0
	if now-p.lastAtMin[k] > p.minTimeout {
		n = max(n, min(p.minShare[k], p.demand[k])-p.running[k])
	}
	if now-p.lastAtHalf[k] > f.fairTimeout {
		n = max(n, int(math.Min(p.share[k], float64(p.demand[k])))-p.running[k])
	}
	return n
}

// killHere kills the victims chosen for this tracker that still run the
// attempt chosen.
func (f *Fair) killHere(hb *replay.Heartbeat) error {
	if len(f.kills[hb.Node()]) == 0 {
		return nil // the common case: no closure on the heartbeat path
	}
	n, err := victim.KillMarked(hb, &f.kills[hb.Node()], func(r replay.TaskRef) {
		f.changeRunning(r, -1)
		f.relistJob(r.Job, r.Kind)
	})
	f.nKills -= n
	return err
}
