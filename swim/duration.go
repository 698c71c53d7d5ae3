package swim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// DurationModel turns bytes into task run times at reference speed.
//
//	map    = MapStartup    + split bytes / MapRate × skew
//	reduce = ReduceStartup + (its shuffle bytes + its share of the output) / ReduceRate × skew
//
// skew is a mean-preserving log-normal multiplier exp(σZ − σ²/2), Z
// standard normal, drawn per task with σ = TaskSkew. A reduce task's
// duration is the part after its shuffle: the replayer models the network
// transfer of the shuffle itself from the per-reduce shuffle bytes, which
// are the job's shuffle split over its reduces with weights exp(σZ − σ²/2),
// σ = ShuffleSkew, rounded so that they sum to the job's shuffle bytes. A
// reduce's share of the output is proportional to its share of the shuffle.
//
// The defaults make a map over a full 128 MiB block take 4 s + 56.9 s ≈ 61 s,
// the "execution times around one minute" the HFSP paper observes for map
// tasks (Section 3.2.2); reduces process their bytes at the same rate.
// Memory footprints default to 512 MiB per map and 1 GiB per reduce, the
// reduce heap the paper uses (Section 4.4).
type DurationModel struct {
	MapStartup    float64 // s per map task (JVM start, scheduling)
	MapRate       float64 // bytes per s a map processes
	ReduceStartup float64 // s per reduce task
	ReduceRate    float64 // bytes per s a reduce processes after its shuffle
	TaskSkew      float64 // σ of the log-normal multiplier of each task's work; 0 = none
	ShuffleSkew   float64 // σ of the log-normal weights of the reduce partitions; 0 = equal
	MapMemory     int64   // bytes per map task
	ReduceMemory  int64   // bytes per reduce task
}

// DefaultDurationModel returns the default parameters (see DurationModel).
func DefaultDurationModel() DurationModel {
	return DurationModel{
		MapStartup:    4,
		MapRate:       2.25 * MiB,
		ReduceStartup: 4,
		ReduceRate:    2.25 * MiB,
		TaskSkew:      0.25,
		ShuffleSkew:   0.5,
		MapMemory:     512 * MiB,
		ReduceMemory:  1 * GiB,
	}
}

// maxSkew bounds σ: exp(3Z) already spans four orders of magnitude.
const maxSkew = 3

// Validate checks every field; its error names the bad one. A duration
// model has no zero defaults: a zero skew means no skew.
func (d *DurationModel) Validate() error {
	for _, c := range []struct {
		field string
		v     float64
		ok    bool
		want  string
	}{
		{"MapStartup", d.MapStartup, finiteNonNeg(d.MapStartup) && d.MapStartup <= MaxTime, fmt.Sprintf("a time from 0 to %g s", MaxTime)},
		{"MapRate", d.MapRate, d.MapRate > 0 && !math.IsInf(d.MapRate, 1), "a finite rate > 0 bytes/s"},
		{"ReduceStartup", d.ReduceStartup, finiteNonNeg(d.ReduceStartup) && d.ReduceStartup <= MaxTime, fmt.Sprintf("a time from 0 to %g s", MaxTime)},
		{"ReduceRate", d.ReduceRate, d.ReduceRate > 0 && !math.IsInf(d.ReduceRate, 1), "a finite rate > 0 bytes/s"},
		{"TaskSkew", d.TaskSkew, d.TaskSkew >= 0 && d.TaskSkew <= maxSkew, "σ in [0, 3]"},
		{"ShuffleSkew", d.ShuffleSkew, d.ShuffleSkew >= 0 && d.ShuffleSkew <= maxSkew, "σ in [0, 3]"},
		{"MapMemory", float64(d.MapMemory), d.MapMemory >= 0, "bytes >= 0"},
		{"ReduceMemory", float64(d.ReduceMemory), d.ReduceMemory >= 0, "bytes >= 0"},
	} {
		if !c.ok {
			return &ConfigError{"Durations." + c.field, fmt.Sprintf("%v; want %s", c.v, c.want)}
		}
	}
	return nil
}

// Skew returns a mean-preserving log-normal multiplier exp(σZ − σ²/2).
func Skew(sigma float64, rng *rand.Rand) float64 {
	if sigma == 0 {
		return 1
	}
	return math.Exp(sigma*rng.NormFloat64() - sigma*sigma/2)
}

// Tasks returns the per-task durations (s) and per-reduce shuffle bytes of
// a job of shape s. Durations are rounded to the millisecond.
func (d *DurationModel) Tasks(s Shape, rng *rand.Rand) (maps, reduces []float64, shuffle []int64) {
	return d.appendTasks(s, rng, nil, nil, nil)
}

// appendTasks is Tasks appending to the given slices, which must be
// empty; it makes them when nil, as Tasks needs never-nil slices.
func (d *DurationModel) appendTasks(s Shape, rng *rand.Rand, maps, reduces []float64, shuffle []int64) ([]float64, []float64, []int64) {
	maps = slices.Grow(maps, s.Maps)
	for i := range s.Maps {
		split := s.SplitBytes
		if i == s.Maps-1 {
			split = s.LastSplitBytes
		}
		maps = append(maps, roundMillis(d.MapStartup+float64(split)/d.MapRate*Skew(d.TaskSkew, rng)))
	}
	reduces = slices.Grow(reduces, s.Reduces)[:s.Reduces]
	shuffle = slices.Grow(shuffle, s.Reduces)[:s.Reduces]
	if maps == nil {
		maps = []float64{}
	}
	if reduces == nil {
		reduces, shuffle = []float64{}, []int64{}
	}
	if s.Reduces == 0 {
		return maps, reduces, shuffle
	}
	// Partition weights, then integer bytes that sum to the shuffle. The
	// weights are kept in reduces until they become durations.
	w := reduces
	var sum float64
	for i := range w {
		w[i] = Skew(d.ShuffleSkew, rng)
		sum += w[i]
	}
	var given int64
	for i := range w {
		w[i] /= sum
		shuffle[i] = int64(float64(s.ShuffleBytes) * w[i])
		given += shuffle[i]
	}
	for i := 0; given < s.ShuffleBytes; i = (i + 1) % len(shuffle) { // about len(shuffle) bytes short
		shuffle[i]++
		given++
	}
	for i := 0; given > s.ShuffleBytes; i = (i + 1) % len(shuffle) { // float rounding, in theory
		if shuffle[i] > 0 {
			shuffle[i]--
			given--
		}
	}
	for i := range reduces {
		work := float64(shuffle[i]) + float64(s.OutputBytes)*w[i]
		reduces[i] = roundMillis(d.ReduceStartup + work/d.ReduceRate*Skew(d.TaskSkew, rng))
	}
	return maps, reduces, shuffle
}

// roundMillis rounds a non-negative duration to the millisecond (half up;
// faster than math.Round, which matters at a hundred million tasks).
func roundMillis(s float64) float64 { return float64(int64(s*1000+0.5)) / 1000 }
