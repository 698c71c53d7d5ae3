package order

import (
	"slices"

	"sojourn/replay"
)

// Subset keeps, in a policy's order of jobs, the jobs that may have tasks
// of a kind to launch, so that a policy serving jobs in that order does not
// walk past every job whose tasks all run. A job found with none is
// dropped; one whose task is pending again after a kill or a loss is added
// back.
type Subset struct {
	// Compare is the order, which must not change while a job is in the
	// subset; nil means FIFO.
	Compare func(v *replay.View, a, b int32) int
	jobs    []int32
	in      []bool // by job index
}

// Jobs lists the subset's jobs in order. The slice is the subset's: read
// it, do not keep or change it.
func (s *Subset) Jobs() []int32 { return s.jobs }

// Add inserts job j at its place, unless it is there.
func (s *Subset) Add(v *replay.View, j int32) {
	if len(s.in) < v.Jobs() {
		s.in = slices.Grow(s.in, v.Jobs()-len(s.in))[:v.Jobs()]
	}
	if s.in[j] {
		return
	}
	s.in[j] = true
	cmp := s.Compare
	if cmp == nil {
		cmp = FIFO
	}
	i, _ := slices.BinarySearchFunc(s.jobs, j, func(a, b int32) int { return cmp(v, a, b) })
	s.jobs = slices.Insert(s.jobs, i, j)
}

// Remove deletes job j if it is there.
func (s *Subset) Remove(j int32) {
	if int(j) >= len(s.in) || !s.in[j] {
		return
	}
	s.in[j] = false
	if i := slices.Index(s.jobs, j); i >= 0 {
		s.jobs = slices.Delete(s.jobs, i, i+1)
	}
}

// First returns the first job with a task of kind k to launch (a pending
// map, or a pending reduce past slow-start), dropping on the way the jobs
// that have none and cannot get one without a kill or a loss.
func (s *Subset) First(v *replay.View, k replay.TaskKind) (int32, bool) {
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

// FirstFitting is First for the node of hb: it passes over the jobs
// whose container of kind k does not fit what the node has left (they
// stay in the subset). In the slot model every job fits a free slot.
func (s *Subset) FirstFitting(hb *replay.Heartbeat, k replay.TaskKind) (int32, bool) {
	for i := 0; i < len(s.jobs); {
		j := s.jobs[i]
		jv := hb.Job(j)
		eligible := k == replay.Map || jv.ReducesEligible()
		switch {
		case jv.Pending(k) > 0 && eligible:
			if hb.Fits(j, k) {
				return j, true
			}
			i++
		case jv.Pending(k) == 0 && (eligible || jv.Done()):
			s.in[j] = false
			s.jobs = slices.Delete(s.jobs, i, i+1)
		default:
			i++ // reduces waiting for slow-start
		}
	}
	return 0, false
}
