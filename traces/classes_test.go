package traces

import (
	"reflect"
	"testing"
)

// TestClassesBySize: classes come from the smallest jobs to the largest
// (by mean task count), not as strings sort ("big" < "medium" <
// "small"), with the task counts of their jobs as bounds.
func TestClassesBySize(t *testing.T) {
	job := func(class string, maps, reduces int) Job {
		return Job{Class: class, MapDurations: make([]float64, maps), ReduceDurations: make([]float64, reduces)}
	}
	tr := &Trace{Jobs: []Job{job("medium", 30, 2), job("big", 900, 40), job("small", 1, 0), job("small", 2, 0), job("medium", 3, 0)}}
	var names, bounds []string
	for _, c := range Classes(tr) {
		names = append(names, c.Name)
		bounds = append(bounds, c.Bounds())
	}
	if want := []string{"small", "medium", "big"}; !reflect.DeepEqual(names, want) {
		t.Errorf("classes %v, want %v", names, want)
	}
	if want := []string{"1–2 maps, 0 reduces", "3–30 maps, 0–2 reduces", "900 maps, 40 reduces"}; !reflect.DeepEqual(bounds, want) {
		t.Errorf("bounds %q, want %q", bounds, want)
	}
}
