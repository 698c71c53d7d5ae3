package schedulers

import (
	"slices"

	"sojourn/replay"
)

// jobSubset keeps, in FIFO order (fifoCompare), the jobs that may have
// tasks of a kind to launch, so that a policy serving jobs in that order
// does not walk past every job whose tasks all run. A job found with none
// is dropped; one whose task is pending again after a kill or a loss is
// added back.
type jobSubset struct {
	jobs []int32
	in   []bool // by job index
}

// add inserts job j at its place, unless it is there.
func (s *jobSubset) add(v *replay.View, j int32) {
	if len(s.in) < v.Jobs() {
		s.in = slices.Grow(s.in, v.Jobs()-len(s.in))[:v.Jobs()]
	}
	if s.in[j] {
		return
	}
	s.in[j] = true
	i, _ := slices.BinarySearchFunc(s.jobs, j, func(a, b int32) int { return fifoCompare(v, a, b) })
	s.jobs = slices.Insert(s.jobs, i, j)
}

// remove deletes job j if it is there.
func (s *jobSubset) remove(j int32) {
	if int(j) >= len(s.in) || !s.in[j] {
		return
	}
	s.in[j] = false
	if i := slices.Index(s.jobs, j); i >= 0 {
		s.jobs = slices.Delete(s.jobs, i, i+1)
	}
}

// first returns the first job with a task of kind k to launch (a pending
// map, or a pending reduce past slow-start), dropping on the way the jobs
// that have none and cannot get one without a kill or a loss.
func (s *jobSubset) first(v *replay.View, k replay.TaskKind) (int32, bool) {
	for i := 0; i < len(s.jobs); {
		j := s.jobs[i]
		jv := v.Job(j)
		eligible := k == replay.Map || jv.ReducesEligible()
		switch {
		case jv.Pending(k) > 0 && eligible:
			return j, true
		case jv.Pending(k) == 0 && (eligible || jv.Done()):
			s.in[j] = false
			s.jobs = slices.Delete(s.jobs, i, i+1)
		default:
			i++ // reduces waiting for slow-start
		}
	}
	return 0, false
}
