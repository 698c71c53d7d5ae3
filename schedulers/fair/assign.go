package fair

import (
	"math"

	"sojourn/replay"
	"sojourn/schedulers/internal/delay"
)

// OnHeartbeat implements replay.Scheduler.
func (f *Fair) OnHeartbeat(hb *replay.Heartbeat) error {
	f.v = hb.View
	now := hb.Now()
	f.epoch++
	if f.dirty || now >= f.nextUpdate {
		f.update(hb.View)
		if f.o.preempt && now-f.lastPreempt >= replay.Seconds(f.o.preemptEvery) {
			f.lastPreempt = now
			f.preempt(hb.View)
		}
	}
	// Delay scheduling: credit the jobs skipped at the last heartbeat.
	f.clock.Credit(hb, func(j int32) *delay.Wait { return &f.jobs[j].wait })
	if err := f.assign(hb); err != nil {
		return err
	}
	return f.killHere(hb)
}

// assign fills the tracker's slots as FairScheduler.assignTasks does.
func (f *Fair) assign(hb *replay.Heartbeat) error {
	var rejected [2]bool
	assigned := 0
	for {
		for k := range 2 {
			kind := replay.TaskKind(k)
			if !rejected[k] && (hb.Free(kind) == 0 || f.running[k] >= f.demand[k] || !f.canAssign(hb, kind)) {
				rejected[k] = true
			}
		}
		if rejected[replay.Map] && rejected[replay.Reduce] || !f.o.assignMultiple && assigned > 0 {
			return nil
		}
		k := replay.Map
		switch {
		case rejected[replay.Map]:
			k = replay.Reduce
		case !rejected[replay.Reduce] && f.busy(hb, replay.Map) > f.busy(hb, replay.Reduce):
			k = replay.Reduce
		}
		ok, err := f.assignOne(hb, k)
		if err != nil {
			return err
		}
		if !ok {
			rejected[k] = true
		}
		assigned++
	}
}

// busy is the number of tasks of kind k running on the tracker.
func (f *Fair) busy(hb *replay.Heartbeat, k replay.TaskKind) int {
	return hb.NodeSlots(hb.Node(), k) - hb.Free(k)
}

// canAssign is CapBasedLoadManager.canAssign{Map,Reduce} (maxDiff 0).
func (f *Fair) canAssign(hb *replay.Heartbeat, k replay.TaskKind) bool {
	if !f.o.loadCap {
		return true
	}
	slots := hb.NodeSlots(hb.Node(), k)
	load := 1.0
	if total := hb.Slots(k); total > 0 {
		load = min(1, float64(f.demand[k])/float64(total))
	}
	return f.busy(hb, k) < int(math.Ceil(float64(slots)*load))
}

// assignOne launches one task of kind k from the first pool, in
// FairShareComparator order, that has one; pools and jobs found empty are
// marked and not asked again during this heartbeat.
func (f *Fair) assignOne(hb *replay.Heartbeat, k replay.TaskKind) (bool, error) {
	for {
		var best *fairPool
		for _, p := range f.live {
			if p.tried[k] != f.epoch && (best == nil || comparePools(k, p, best) < 0) {
				best = p
			}
		}
		if best == nil {
			return false, nil
		}
		if best.running[k] < best.maxSlots[k] {
			if ok, err := f.assignInPool(hb, best, k); ok || err != nil {
				return ok, err
			}
		}
		best.tried[k] = f.epoch
	}
}

func (f *Fair) assignInPool(hb *replay.Heartbeat, p *fairPool, k replay.TaskKind) (bool, error) {
	for i := 0; i < len(p.list[k]); i++ {
		j := p.list[k][i]
		jb := &f.jobs[j]
		if jb.tried[k] == f.epoch {
			continue
		}
		jb.tried[k] = f.epoch
		if !f.launchable(k, j) {
			f.unlist(p, k, j) // until a kill, a loss or slow-start
			i--
			continue
		}
		if !hb.Fits(j, k) {
			continue // its container does not fit what the node has left
		}
		var idx int32
		var loc replay.Locality
		var ok bool
		if k == replay.Map {
			idx, loc, ok = hb.PendingMap(j, hb.Node(), f.allowedLevel(jb, hb.Now()))
			if !ok {
				f.clock.Skip(j, &jb.wait.Mark)
			}
		} else {
			idx, ok = hb.PendingReduce(j)
		}
		if !ok {
			continue
		}
		if err := hb.Launch(replay.TaskRef{Job: j, Kind: k, Index: idx}); err != nil {
			return false, err
		}
		jb.tried[k] = 0 // it may have another task
		if k == replay.Map {
			jb.wait.Launch(&f.clock, j, loc)
		}
		f.changeRunning(replay.TaskRef{Job: j, Kind: k, Index: idx}, +1)
		return true, nil
	}
	return false, nil
}

// allowedLevel is FairScheduler.getAllowedLocalityLevel.
func (f *Fair) allowedLevel(jb *fairJob, now replay.Time) replay.Locality {
	p := jb.pool
	if now-p.lastAtMin[replay.Map] > p.minTimeout || now-p.lastAtHalf[replay.Map] > f.fairTimeout {
		return replay.OffRack // the pool is starved: no waiting
	}
	return jb.wait.Level(f.delay)
}
