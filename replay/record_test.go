package replay

import (
	"reflect"
	"testing"

	"sojourn/traces"
)

// collectSink concatenates the chunks a replay streams.
type collectSink struct {
	seg    Segments
	occ    Occupancy
	chunks int
}

func (c *collectSink) WriteSegments(s *Segments) error {
	c.chunks++
	c.seg.Job = append(c.seg.Job, s.Job...)
	c.seg.Kind = append(c.seg.Kind, s.Kind...)
	c.seg.Task = append(c.seg.Task, s.Task...)
	c.seg.Attempt = append(c.seg.Attempt, s.Attempt...)
	c.seg.Node = append(c.seg.Node, s.Node...)
	c.seg.Start = append(c.seg.Start, s.Start...)
	c.seg.End = append(c.seg.End, s.End...)
	c.seg.Swap = append(c.seg.Swap, s.Swap...)
	c.seg.Locality = append(c.seg.Locality, s.Locality...)
	c.seg.Outcome = append(c.seg.Outcome, s.Outcome...)
	return nil
}

func (c *collectSink) WriteOccupancy(o *Occupancy) error {
	c.chunks++
	c.occ.Time = append(c.occ.Time, o.Time...)
	c.occ.Job = append(c.occ.Job, o.Job...)
	c.occ.RunningMaps = append(c.occ.RunningMaps, o.RunningMaps...)
	c.occ.RunningReduces = append(c.occ.RunningReduces, o.RunningReduces...)
	c.occ.Suspended = append(c.occ.Suspended, o.Suspended...)
	return nil
}

// TestStreamedRowsEqualResult: rows streamed in small chunks, put end to
// end, are the rows a Result holds: none lost, doubled or reordered, and
// an occupancy row still open to change at its instant (several changes
// of one job at one time make one row) is never handed over early.
// Suspensions, kills and failures make every outcome and many same-instant
// changes.
func TestStreamedRowsEqualResult(t *testing.T) {
	defer func(n int) { sinkChunk = n }(sinkChunk)
	maps := make([]float64, 60)
	for i := range maps {
		maps[i] = 10 + float64(i%7)
	}
	var jobs []traces.Job
	for i := 0; i < 12; i++ {
		jobs = append(jobs, jobSpec(float64(i)*15, maps[:20+i*3], []float64{80, 60, 40}, 5e7, 1<<30))
	}
	tr := mkTrace(t, jobs...)
	for _, p := range []*newestReduce{{}, {kill: true}} {
		cfg := Config{Nodes: 4, Seed: 2, MTBF: 900, MTTR: 60, RecordTasks: true, RecordOccupancy: true}
		whole := mustRun(t, tr, p, cfg)
		for _, chunk := range []int{1, 3, 7} {
			sinkChunk = chunk
			e, err := New(tr, &newestReduce{kill: p.kill}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var c collectSink
			e.StreamRows(&c)
			r, err := e.Run()
			if err != nil {
				t.Fatal(err)
			}
			if r.Segments.Len() != 0 || r.Occupancy.Len() != 0 {
				t.Fatalf("%s, chunks of %d: the result kept %d segments and %d occupancy rows", p.Name(), chunk, r.Segments.Len(), r.Occupancy.Len())
			}
			if c.chunks < whole.Segments.Len()/chunk {
				t.Fatalf("%s, chunks of %d: %d chunks for %d segments", p.Name(), chunk, c.chunks, whole.Segments.Len())
			}
			if !reflect.DeepEqual(c.seg, whole.Segments) {
				t.Errorf("%s, chunks of %d: streamed segments (%d) differ from the result's (%d)", p.Name(), chunk, c.seg.Len(), whole.Segments.Len())
			}
			if !reflect.DeepEqual(c.occ, whole.Occupancy) {
				t.Errorf("%s, chunks of %d: streamed occupancy (%d rows) differs from the result's (%d)", p.Name(), chunk, c.occ.Len(), whole.Occupancy.Len())
			}
		}
	}
}
