package traces

import (
	"cmp"
	"fmt"
	"slices"
)

// ClassInfo describes one class label of a trace: its jobs and the range
// of their task counts, the bounds a reader needs to know what the label
// means.
type ClassInfo struct {
	Name                   string
	Jobs                   int
	MinMaps, MaxMaps       int
	MinReduces, MaxReduces int
	meanTasks              float64
}

// Bounds reads "1–2 maps, 0 reduces": the task counts of the class's
// jobs in the trace.
func (c ClassInfo) Bounds() string {
	r := func(lo, hi int, what string) string {
		if lo == hi {
			if lo == 1 {
				what = what[:len(what)-1]
			}
			return fmt.Sprintf("%d %s", lo, what)
		}
		return fmt.Sprintf("%d–%d %s", lo, hi, what)
	}
	return r(c.MinMaps, c.MaxMaps, "maps") + ", " + r(c.MinReduces, c.MaxReduces, "reduces")
}

// Widen makes c's bounds cover o's too (the same class in another trace).
func (c *ClassInfo) Widen(o ClassInfo) {
	c.MinMaps, c.MaxMaps = min(c.MinMaps, o.MinMaps), max(c.MaxMaps, o.MaxMaps)
	c.MinReduces, c.MaxReduces = min(c.MinReduces, o.MinReduces), max(c.MaxReduces, o.MaxReduces)
}

// Classes returns the trace's class labels from the smallest jobs to the
// largest: by the mean task count of their jobs, then by name. A job
// without a label is in the class "".
func Classes(t *Trace) []ClassInfo {
	by := map[string]*ClassInfo{}
	var names []string
	for i := range t.Jobs {
		j := &t.Jobs[i]
		c, ok := by[j.Class]
		if !ok {
			c = &ClassInfo{Name: j.Class, MinMaps: j.Maps(), MaxMaps: j.Maps(), MinReduces: j.Reduces(), MaxReduces: j.Reduces()}
			by[j.Class] = c
			names = append(names, j.Class)
		}
		c.Jobs++
		c.Widen(ClassInfo{MinMaps: j.Maps(), MaxMaps: j.Maps(), MinReduces: j.Reduces(), MaxReduces: j.Reduces()})
		c.meanTasks += float64(j.Maps() + j.Reduces())
	}
	out := make([]ClassInfo, 0, len(names))
	for _, n := range names {
		c := by[n]
		c.meanTasks /= float64(c.Jobs)
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b ClassInfo) int {
		return cmp.Or(cmp.Compare(a.meanTasks, b.meanTasks), cmp.Compare(a.Name, b.Name))
	})
	return out
}
