package versus

import (
	"fmt"
	"math"
	"strconv"

	"sojourn/analysis"
)

// Resampling schemes of the bootstrap, as Row.Resampling names them.
const (
	// ResampleSeeds draws whole seeds with replacement, the same seeds for
	// both policies, where each seed generated its own workload: the
	// interval reflects how the change varies from one workload draw (and
	// cluster) to another.
	ResampleSeeds = "seeds"
	// ResampleWindows is the default for a workload replayed from one
	// trace on every seed: a block bootstrap over submit-time windows,
	// paired by job. The trace's jobs, in submit order, are drawn in
	// blocks, each the jobs submitted within a window of WindowS seconds
	// from a job drawn at random (wrapping past the end), the same jobs for
	// both policies, each with its results on every seed pooled so that
	// placement noise is averaged. The interval estimates how the change
	// would vary across workloads like the trace, from its job-to-job and
	// time-to-time variation (analysis.TimeBlocks).
	ResampleWindows = "windows"
	// ResampleClusterSeeds draws whole seeds of one trace (Options.Resample
	// = ResampleSeeds): only HDFS block placement differs between seeds,
	// so the interval reflects placement, not the workload.
	ResampleClusterSeeds = "cluster seeds"
)

// DefaultWindowJobs is the mean number of jobs a submit-time window holds
// by default (fewer on a trace of fewer than MinWindows times as many).
const DefaultWindowJobs = 10

// MinWindows is the fewest windows a trace is cut into by default.
const MinWindows = 5

// resampling is how one workload's rows are resampled.
type resampling struct {
	method     string
	window     float64 // s, for ResampleWindows
	windowJobs float64 // mean jobs per window
	blocks     []int   // analysis.Bootstrap.Blocks
}

func (o *Options) checkResampling() error {
	switch o.Resample {
	case "", ResampleWindows, ResampleSeeds:
	default:
		return fmt.Errorf("resampling %q: want %s or %s", o.Resample, ResampleWindows, ResampleSeeds)
	}
	if o.Window < 0 || math.IsNaN(o.Window) || math.IsInf(o.Window, 0) || o.WindowJobs < 0 {
		return fmt.Errorf("window %v s, %d jobs: want a positive width or number of jobs", o.Window, o.WindowJobs)
	}
	if o.Window > 0 && o.WindowJobs > 0 {
		return fmt.Errorf("window of %v s and of %d jobs: want one of the two", o.Window, o.WindowJobs)
	}
	return nil
}

// resampling chooses how to resample the workload of g: its seeds when
// each replayed a trace of its own, else (one trace) blocks of
// submit-time windows, or its seeds if asked.
func (o *Options) resampling(g *group) (resampling, error) {
	if distinct(g.sums) > 1 {
		return resampling{method: ResampleSeeds}, nil
	}
	if o.Resample == ResampleSeeds {
		if len(g.seeds) < 2 {
			return resampling{}, fmt.Errorf("workload %s: one seed; resampling seeds needs at least two", g.workload)
		}
		return resampling{method: ResampleClusterSeeds}, nil
	}
	submit := g.jobs[0].submit
	n := len(submit)
	width := o.Window
	if width == 0 {
		k := o.WindowJobs
		if k == 0 {
			k = min(DefaultWindowJobs, max(1, n/MinWindows))
		}
		width = WindowFor(submit, k)
	}
	blocks := analysis.TimeBlocks(submit, width)
	mean := analysis.MeanBlock(blocks)
	if n > 1 && mean > float64(n)/2 {
		return resampling{}, fmt.Errorf("workload %s: windows of %s hold %.0f of its %d jobs on average; want at most half of them for a block bootstrap",
			g.workload, seconds(width), mean, n)
	}
	return resampling{method: ResampleWindows, window: width, windowJobs: mean, blocks: blocks}, nil
}

// WindowFor is the width (s) of a submit-time window that holds k jobs on
// average: k mean gaps between submits (at least 1 ms).
func WindowFor(submit []float64, k int) float64 {
	n := len(submit)
	if n < 2 {
		return 1
	}
	return max(float64(k)*(submit[n-1]-submit[0])/float64(n-1), 0.001)
}

// seconds writes a width in seconds with three significant digits, or in
// minutes from 10 minutes on.
func seconds(s float64) string {
	if s >= 600 {
		return strconv.FormatFloat(s/60, 'f', 1, 64) + " min"
	}
	return strconv.FormatFloat(s, 'g', 3, 64) + " s"
}

// basis says what varied in a row's interval, for its verdict.
func basis(r *Row) string {
	switch r.Resampling {
	case ResampleWindows:
		seeds := "1 seed"
		if r.Seeds > 1 {
			seeds = strconv.Itoa(r.Seeds) + " seeds pooled"
		}
		return fmt.Sprintf("one trace, %s, windows of %s", seeds, seconds(r.WindowS))
	case ResampleClusterSeeds:
		return fmt.Sprintf("one trace, %s (placement only)", plural(r.Seeds, "cluster seed"))
	}
	return plural(r.Seeds, "seed")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
