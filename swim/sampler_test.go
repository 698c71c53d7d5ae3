package swim

import (
	"errors"
	"reflect"
	"testing"
)

func tinyTrace() []Record {
	var recs []Record
	for i, s := range []float64{10, 12, 30, 55, 70, 100} {
		recs = append(recs, Record{ID: "r" + string(rune('0'+i)), Submit: s, InputBytes: int64(i)})
	}
	return recs
}

// TestSampleAtByHand walks WorkloadSynthesis.pl's loop by hand over a
// six-job trace (submits 10, 12, 30, 55, 70, 100) with 20 s windows:
//
//	window [5.5, 25.5]: prev = 5.5 − 0; r0 gap 10−5 = 5 (t 5), r1 gap 2 (t 7); tail 25.5−12 = 13.5
//	window [31, 51]:    no job; the carried idle time grows to 13.5+20 = 33.5
//	window [52.25, 72.25]: prev = 52.25−33.5 = 18.75; r3 gap 55−18 = 37 (t 44), r4 gap 15 (t 59); tail 2.25
//	window [10, 30]:    prev = 10−2.25 = 7.75; r0 gap 10−7 = 3 (t 62), r1 gap 2 (t 64), r2 gap 18 (t 82), ends included
func TestSampleAtByHand(t *testing.T) {
	got := SampleAt(tinyTrace(), []float64{5.5, 31, 52.25, 10}, 20)
	type row struct {
		id          string
		submit, gap float64
	}
	want := []row{{"r0", 5, 5}, {"r1", 7, 2}, {"r3", 44, 37}, {"r4", 59, 15}, {"r0", 62, 3}, {"r1", 64, 2}, {"r2", 82, 18}}
	var have []row
	for _, r := range got {
		have = append(have, row{r.ID, r.Submit, r.Gap})
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("got  %v\nwant %v", have, want)
	}
	if got[2].InputBytes != 3 {
		t.Errorf("sizes not kept: r3 has input %d", got[2].InputBytes)
	}
}

func TestSample(t *testing.T) {
	recs := tinyTrace()
	s := Sampler{Samples: 5, Window: 20}
	a, err := s.Sample(recs, newStream(7, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Sample(recs, newStream(7, 1, 0))
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two samples")
	}
	for i := 1; i < len(a); i++ {
		if a[i].Submit < a[i-1].Submit || a[i].Gap < 0 {
			t.Fatalf("sample not in submit order at %d: %+v", i, a)
		}
	}
	// Sampling until MaxJobs, with no window count.
	c, err := Sampler{Window: 20, MaxJobs: 25}.Sample(recs, newStream(7, 1, 0))
	if err != nil || len(c) != 25 {
		t.Errorf("MaxJobs 25: %d jobs, %v", len(c), err)
	}
	_, err = Sampler{Window: 101}.Sample(recs, newStream(7, 1, 0))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Field != "Sampler.Window" {
		t.Errorf("window longer than the trace: %v; want a Sampler.Window error", err)
	}
}
