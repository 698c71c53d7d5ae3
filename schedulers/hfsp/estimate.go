package hfsp

import (
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/vcluster"
)

func (h *HFSP) taskFinished(t replay.TaskRef, v *replay.View) {
	hj := &h.jobs[t.Job]
	tv := v.Task(t)
	h.pastSum[t.Kind] += tv.RunTime().Sec()
	h.pastCount[t.Kind]++
	sample := h.isSample(t)
	if sample {
		h.trainingRunning[t.Kind]--
		h.quietVer++
	}
	jv := v.Job(t.Job)
	if jv.Finished(t.Kind) == jv.Tasks(t.Kind) {
		// The phase is over for real; it stays in the virtual cluster
		// until it finishes there too (FSP ages it to completion).
		hj.realDone[t.Kind] = true
		if t.Kind == replay.Map {
			h.dropBlocks(t.Job)
			h.enterReduces(t.Job)
		}
		h.endTraining(t.Job, t.Kind)
		if hj.inVC[t.Kind] {
			if at, _, done := h.vc[t.Kind].Finished(int64(t.Job)); done {
				hj.vfinish[t.Kind] = at
				h.vc[t.Kind].Remove(int64(t.Job))
				h.setInVC(t.Job, t.Kind, false)
			} else {
				hj.zombie[t.Kind] = true
				h.zombies[t.Kind]++
				h.quietVer++
				if !h.o.latePS { // only the serve list reads the marks
					h.unmarked[t.Kind] = append(h.unmarked[t.Kind], t.Job)
				}
			}
		}
		return
	}
	// Maps are estimated when their samples have all finished, so only a
	// sample's end can make it possible; reduces also by the time their
	// samples have run.
	if !hj.trained[t.Kind] && (sample || t.Kind == replay.Reduce) {
		h.tryEstimate(t.Job, t.Kind, v)
	}
}

func (h *HFSP) endTraining(j int32, k replay.TaskKind) {
	h.jobs[j].trained[k] = true
	h.stopSampling(j, k)
	if k == replay.Reduce {
		h.sampled = deleteSorted(h.sampled, j)
	}
	for i, x := range h.training[k] {
		if x == j {
			h.training[k] = append(h.training[k][:i], h.training[k][i+1:]...)
			return
		}
	}
}

// sampleTarget is the number of samples of phase k of job hj: s, or all
// its tasks if it has fewer.
func (h *HFSP) sampleTarget(hj *hfspJob, k replay.TaskKind) int {
	return min(h.o.samples, hj.tasks[k])
}

// tryEstimate re-estimates a phase once all its samples have reported:
// maps when they finished; reduces when each finished or ran its reduce
// function for Δ seconds.
func (h *HFSP) tryEstimate(j int32, k replay.TaskKind, v *replay.View) {
	hj := &h.jobs[j]
	jv := v.Job(j)
	if len(hj.samples[k]) < h.sampleTarget(hj, k) {
		return
	}
	var size float64
	n := float64(jv.Tasks(k))
	if k == replay.Map {
		for _, s := range hj.samples[k] {
			if !v.Task(replay.TaskRef{Job: j, Kind: k, Index: s}).Done() {
				return
			}
		}
		durs := h.scratch[:0]
		for _, s := range hj.samples[k] {
			durs = append(durs, v.Task(replay.TaskRef{Job: j, Kind: k, Index: s}).RunTime().Sec())
		}
		h.scratch = durs
		size = FitUniformMean(durs) * n * hj.errFactor
	} else {
		var shuffleW, weights float64
		execs := h.scratch[:0]
		now := v.Now()
		for _, s := range hj.samples[k] {
			tv := v.Task(replay.TaskRef{Job: j, Kind: k, Index: s})
			shuffled, shuffleEnd, progress := tv.ReducePhase()
			if !shuffled {
				return
			}
			var exec float64
			switch {
			case tv.Done():
				exec = (tv.Finish() - shuffleEnd).Sec()
			case (now-shuffleEnd).Sec() >= h.o.delta && progress > 0:
				exec = (now - shuffleEnd).Sec() / progress
			default:
				return
			}
			w := float64(tv.ShuffleBytes()) + 1
			shuffleW += w * (shuffleEnd - tv.AttemptStart()).Sec()
			weights += w
			execs = append(execs, exec)
		}
		h.scratch = execs
		size = shuffleW/weights*n + FitUniformMean(execs)*n
	}
	h.endTraining(j, k)
	h.reestimate(j, k, size)
}

// reestimate gives phase k of job j a new size. By default the service it
// attained in the virtual cluster is kept (the paper's aging); with
// reset-aging the virtual job restarts from the new size, as the public
// HFSP code does.
func (h *HFSP) reestimate(j int32, k replay.TaskKind, size float64) {
	hj := &h.jobs[j]
	if !hj.inVC[k] {
		if k == replay.Reduce && hj.deferred {
			hj.estimate[k] = size // it enters the virtual cluster at it
		}
		return
	}
	vc := h.vc[k]
	attained := hj.estimate[k] - vc.Remaining(int64(j))/hj.units[k]
	rem := size
	if !h.o.resetAging {
		rem = math.Max(0, size-attained)
	}
	hj.estimate[k] = size
	if _, _, done := vc.Finished(int64(j)); done && rem <= vcluster.FinishedEpsilon {
		return
	}
	// The virtual job can run as many tasks at once as the phase has.
	vc.Update(int64(j), rem*hj.units[k], float64(hj.tasks[k])*hj.units[k])
}

// FitUniformMean fits a uniform distribution to samples by least squares
// on their empirical CDF (points x_(i), (i−½)/n) and returns its mean. With
// these plotting positions the fitted line passes through (x̄, ½), so the
// mean is the sample mean; the fit is written out so that other
// distributions can be added the same way.
func FitUniformMean(x []float64) float64 {
	n := float64(len(x))
	if n == 0 {
		return 0
	}
	var sx, sf, sxx, sxf float64
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	for i, v := range sorted {
		f := (float64(i) + 0.5) / n
		sx += v
		sf += f
		sxx += v * v
		sxf += v * f
	}
	mx, mf := sx/n, sf/n
	vx := sxx/n - mx*mx
	// All samples equal: a point mass. The one-pass variance of equal
	// samples is a rounding residue of the size of mx² × 1e-16, not 0
	// (five maps of a day each gave a NaN size), hence the relative test.
	if vx <= 1e-12*max(1, mx*mx) {
		return mx
	}
	slope := (sxf/n - mx*mf) / vx // 1/(b−a)
	if !(slope > 0) || math.IsInf(slope, 0) {
		return mx
	}
	// F(x) = (x − a)/(b − a) = ½ at the mean.
	return mx + (0.5-mf)/slope
}
