package swim

import (
	"errors"
	"math"
	"testing"
)

// TestDefaultMapTakesAMinute: a map over a full 128 MiB block takes
// 4 s + 128 MiB / 2.25 MiB/s = 60.889 s, the HFSP paper's "around one
// minute" (Section 3.2.2).
func TestDefaultMapTakesAMinute(t *testing.T) {
	d := DefaultDurationModel()
	d.TaskSkew = 0
	b := int64(DefaultBlockSize)
	maps, _, _ := d.Tasks(Shape{InputBytes: b, Maps: 1, SplitBytes: b, LastSplitBytes: b}, newStream(1, 1, 0))
	if maps[0] != 60.889 {
		t.Errorf("full-block map: %v s; want 60.889 s", maps[0])
	}
	if d := DefaultDurationModel(); d.MapMemory != 512*MiB || d.ReduceMemory != 1*GiB {
		t.Errorf("memory defaults %d, %d; want 512 MiB and 1 GiB", d.MapMemory, d.ReduceMemory)
	}
}

func TestTasksByHand(t *testing.T) {
	d := DurationModel{MapStartup: 1, MapRate: 100, ReduceStartup: 1, ReduceRate: 10}
	s := Shape{InputBytes: 2005, ShuffleBytes: 1000, OutputBytes: 400, Maps: 3, Reduces: 4, SplitBytes: 1000, LastSplitBytes: 5}
	maps, reduces, shuffle := d.Tasks(s, newStream(1, 1, 0))
	// Maps: 1 + 1000/100 = 11, twice, and 1 + 5/100 = 1.05. Reduces: 250
	// bytes of shuffle each and a quarter of the output, 1 + 350/10 = 36.
	wantMaps, wantReduces := []float64{11, 11, 1.05}, []float64{36, 36, 36, 36}
	for i := range wantMaps {
		if maps[i] != wantMaps[i] {
			t.Errorf("map %d: %v s; want %v", i, maps[i], wantMaps[i])
		}
	}
	for i := range wantReduces {
		if reduces[i] != wantReduces[i] || shuffle[i] != 250 {
			t.Errorf("reduce %d: %v s, %d bytes; want %v s, 250 bytes", i, reduces[i], shuffle[i], wantReduces[i])
		}
	}
}

func TestSkewIsMeanPreserving(t *testing.T) {
	rng := newStream(3, 1, 0)
	const n = 200_000
	for _, sigma := range []float64{0.25, 0.5, 1} {
		var sum float64
		for range n {
			sum += Skew(sigma, rng)
		}
		// Standard error sqrt(e^{σ²}−1)/sqrt(n): 0.0006, 0.0012, 0.0029.
		if mean := sum / n; math.Abs(mean-1) > 0.01 {
			t.Errorf("σ = %v: mean multiplier %v; want 1 within 0.01", sigma, mean)
		}
	}
	if Skew(0, rng) != 1 {
		t.Error("σ = 0 is not the identity")
	}
}

func TestShuffleSkewSumsToShuffle(t *testing.T) {
	d := DefaultDurationModel()
	d.ShuffleSkew = 1.5
	s := Shape{InputBytes: 1, ShuffleBytes: 1_000_003, OutputBytes: 7, Maps: 1, Reduces: 37, SplitBytes: 1, LastSplitBytes: 1}
	_, reduces, shuffle := d.Tasks(s, newStream(5, 1, 0))
	var sum int64
	lo, hi := shuffle[0], shuffle[0]
	for _, b := range shuffle {
		sum += b
		lo, hi = min(lo, b), max(hi, b)
	}
	if sum != s.ShuffleBytes || len(reduces) != 37 {
		t.Errorf("%d reduces fetch %d bytes; want 37 fetching %d", len(reduces), sum, s.ShuffleBytes)
	}
	if lo < 0 || hi <= 2*lo {
		t.Errorf("partitions from %d to %d bytes; want skewed, non-negative ones", lo, hi)
	}
}

func TestDurationModelValidate(t *testing.T) {
	for field, mut := range map[string]func(*DurationModel){
		"Durations.MapRate":     func(d *DurationModel) { d.MapRate = 0 },
		"Durations.ReduceRate":  func(d *DurationModel) { d.ReduceRate = math.Inf(1) },
		"Durations.MapStartup":  func(d *DurationModel) { d.MapStartup = -1 },
		"Durations.TaskSkew":    func(d *DurationModel) { d.TaskSkew = 4 },
		"Durations.ShuffleSkew": func(d *DurationModel) { d.ShuffleSkew = math.NaN() },
		"Durations.MapMemory":   func(d *DurationModel) { d.MapMemory = -1 },
	} {
		d := DefaultDurationModel()
		mut(&d)
		var ce *ConfigError
		if err := d.Validate(); !errors.As(err, &ce) || ce.Field != field || !errors.Is(err, ErrConfig) {
			t.Errorf("%s: error %v", field, err)
		}
	}
	d := DefaultDurationModel()
	if err := d.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}
