// Package victim is what preempting policies share to take a slot back:
// a task chosen to die at its node's next heartbeat, and the suspend or
// kill that frees a slot now.
package victim

import "sojourn/replay"

// Victim is a running task marked to be killed at its node's next
// heartbeat: the attempt marked, so that a task that finished or was lost
// and relaunched since is spared.
type Victim struct {
	Ref      replay.TaskRef
	Node     int32
	Attempts int
	Start    replay.Time
}

// KillMarked kills the victims marked for this tracker's heartbeat that
// still run the attempt marked, calls killed (if not nil) for each, empties
// the tracker's list and returns how many victims it held.
func KillMarked(hb *replay.Heartbeat, marked *[]Victim, killed func(replay.TaskRef)) (int, error) {
	vs := *marked
	*marked = vs[:0]
	n := hb.Node()
	for _, vi := range vs {
		tv := hb.Task(vi.Ref)
		if !tv.Running() || tv.Node() != n || tv.Attempts() != vi.Attempts {
			continue // it finished, or was lost, since
		}
		if err := hb.Kill(vi.Ref); err != nil {
			return len(vs), err
		}
		if killed != nil {
			killed(vi.Ref)
		}
	}
	return len(vs), nil
}

// Evict frees the victim's slot as the preemption mode says: eager
// suspends it, kill kills it, wait leaves it running. It reports false when
// eager cannot suspend (past the node's cap): the caller then waits.
func Evict(hb *replay.Heartbeat, victim replay.TaskRef, mode string) (bool, error) {
	switch mode {
	case "eager":
		if !hb.CanSuspend() {
			return false, nil
		}
		return true, hb.Suspend(victim)
	case "kill":
		return true, hb.Kill(victim)
	}
	return true, nil
}

// Frees reports whether taking v off the node would leave room for a
// task of kind k of job j: always in the slot model (a slot of the
// victim's kind frees one of that kind); in the container model when
// what the node has left plus v's container covers j's container on every
// resource the engine counts. A policy that preempts for a container the
// node could not hold even then would kill for nothing, and refill the
// room with the victim's kind at the next heartbeat.
func Frees(hb *replay.Heartbeat, v replay.TaskRef, j int32, k replay.TaskKind) bool {
	if hb.Model() != replay.ContainerModel {
		return true
	}
	avail, freed, need := hb.Available(), hb.Job(v.Job).Request(v.Kind), hb.Job(j).Request(k)
	for r := range hb.ResourceNames() {
		if hb.Counted(r) && avail[r]+freed[r] < need[r] {
			return false
		}
	}
	return true
}
