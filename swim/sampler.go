package swim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Defaults of SWIM's window sampler: the shipped Facebook samples were made
// with 24 windows of one hour.
const (
	DefaultSamples = 24
	DefaultWindow  = 3600.0
)

// maxWindows bounds the windows drawn when sampling until MaxJobs.
const maxWindows = 10_000_000

// Sampler is SWIM's window sampler (WorkloadSynthesis.pl): it cuts Samples
// windows of Window seconds out of a trace at start times drawn uniformly,
// with replacement, from [0, last submit - Window], and lays them end to
// end. Jobs keep their offsets inside their window; the idle time between
// the last job of a window and its end is carried into the gap before the
// first job of the next window, so the output spans about Samples × Window
// seconds. Sizes are copied unchanged.
type Sampler struct {
	// Samples is the number of windows. 0 means DefaultSamples, or, when
	// MaxJobs is set, as many windows as it takes to reach MaxJobs.
	Samples int
	// Window is the window length in seconds; 0 means DefaultWindow.
	Window float64
	// MaxJobs caps the output at its first MaxJobs jobs; 0 means no cap.
	MaxJobs int
}

// Validate fills zero fields with their defaults and checks the rest.
func (s *Sampler) Validate() error {
	if s.Window == 0 {
		s.Window = DefaultWindow
	}
	if s.Samples == 0 && s.MaxJobs == 0 {
		s.Samples = DefaultSamples
	}
	switch {
	case s.Samples < 0 || s.Samples > MaxSamples:
		return &ConfigError{"Sampler.Samples", fmt.Sprintf("%d; want 0 (default) to %d", s.Samples, MaxSamples)}
	case !(s.Window > 0) || s.Window > MaxTime:
		return &ConfigError{"Sampler.Window", fmt.Sprintf("%v s; want a length > 0 and <= %g s", s.Window, MaxTime)}
	case s.MaxJobs < 0 || s.MaxJobs > MaxJobs:
		return &ConfigError{"Sampler.MaxJobs", fmt.Sprintf("%d; want 0 (no cap) to %d", s.MaxJobs, MaxJobs)}
	}
	return nil
}

// Sample draws window starts from rng and returns the sampled workload (see
// SampleAt). recs must be in submit order, as ParseTSV returns them.
func (s Sampler) Sample(recs []Record, rng *rand.Rand) ([]Record, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, nil
	}
	last := recs[len(recs)-1].Submit
	if s.Window > last {
		return nil, &ConfigError{"Sampler.Window", fmt.Sprintf("%v s is longer than the trace (last submit at %v s)", s.Window, last)}
	}
	span := last - s.Window
	var w windowWalk
	for n := 0; ; n++ {
		if s.Samples > 0 && n == s.Samples {
			break
		}
		if s.MaxJobs > 0 && len(w.out) >= s.MaxJobs {
			break
		}
		if n == maxWindows {
			return nil, fmt.Errorf("swim: %d windows of %v s gave only %d of %d jobs", n, s.Window, len(w.out), s.MaxJobs)
		}
		w.add(recs, rng.Float64()*span, s.Window)
	}
	if s.MaxJobs > 0 && len(w.out) > s.MaxJobs {
		w.out = w.out[:s.MaxJobs]
	}
	return w.out, nil
}

// SampleAt lays the windows [starts[i], starts[i]+window] of recs end to
// end, as WorkloadSynthesis.pl does, and returns the jobs with their new
// submit times and gaps (IDs, sizes and paths are kept). For each window,
// a job with start <= submit <= start+window gets
//
//	gap = submit - floor(prev)
//
// where prev is the previous job's submit in the same window or, for the
// first job of a window, the window's start minus the idle time carried
// from the windows before (their end minus their last job's submit, plus
// the whole length of every empty window in between). Its new submit time
// is the sum of all gaps so far. recs must be in submit order.
func SampleAt(recs []Record, starts []float64, window float64) []Record {
	var w windowWalk
	for _, st := range starts {
		w.add(recs, st, window)
	}
	return w.out
}

// windowWalk is the state WorkloadSynthesis.pl carries between windows.
type windowWalk struct {
	remainder float64 // idle time carried into the next window
	now       float64 // submit time of the last emitted job
	out       []Record
}

func (w *windowWalk) add(recs []Record, start, window float64) {
	end := start + window
	prev := start - w.remainder
	w.remainder += window
	k := sort.Search(len(recs), func(i int) bool { return recs[i].Submit >= start })
	for ; k < len(recs) && recs[k].Submit <= end; k++ {
		r := recs[k]
		gap := r.Submit - math.Floor(prev)
		w.now += gap
		r.Submit, r.Gap = w.now, gap
		w.out = append(w.out, r)
		prev = recs[k].Submit
		w.remainder = end - recs[k].Submit
	}
}
