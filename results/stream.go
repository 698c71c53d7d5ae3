package results

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"sojourn/internal/atomicfile"
	"sojourn/replay"
)

// Stream writes a replay's result files as a set: tasks.arrow and
// occupancy.arrow while it runs (it is a replay.RowSink; see
// Engine.StreamRows), so that memory holds a batch of rows rather than all
// of them, then jobs.arrow from the finished run. The files are the ones
// WriteAll would write from the finished Result, byte for byte: both write
// through a tableStream, in batches of 65,536 rows. They stay hidden under
// temporary names until Commit, which renames them into place only once
// every one is complete; Abort, or a failed Commit, removes them.
type Stream struct {
	dir        string
	md         map[string]string
	tasks, occ *tableStream
}

// NewStream starts tasks.arrow (if tasks) and occupancy.arrow (if
// occupancy) in dir, with the run's metadata md (see Metadata).
func NewStream(dir string, md map[string]string, tasks, occupancy bool) (*Stream, error) {
	s := &Stream{dir: dir, md: md}
	var err error
	if tasks {
		if s.tasks, err = newTableStream(filepath.Join(dir, TasksFile), schemaOf(TaskColumns, md, "tasks")); err != nil {
			return nil, err
		}
	}
	if occupancy {
		if s.occ, err = newTableStream(filepath.Join(dir, OccupancyFile), schemaOf(OccupancyColumns, md, "occupancy")); err != nil {
			s.Abort()
			return nil, err
		}
	}
	return s, nil
}

// WriteSegments implements replay.RowSink.
func (s *Stream) WriteSegments(seg *replay.Segments) error {
	if s.tasks == nil {
		return errors.New("results: task segments streamed, but the stream has no tasks file")
	}
	return s.tasks.write(seg.Len(), func(b *array.RecordBuilder, lo, hi int) { fillTasks(b, seg, lo, hi) })
}

// WriteOccupancy implements replay.RowSink.
func (s *Stream) WriteOccupancy(o *replay.Occupancy) error {
	if s.occ == nil {
		return errors.New("results: occupancy streamed, but the stream has no occupancy file")
	}
	return s.occ.write(o.Len(), func(b *array.RecordBuilder, lo, hi int) { fillOccupancy(b, o, lo, hi) })
}

// Commit writes the last batches and moves the files into place.
func (s *Stream) Commit() error { return s.commit(nil) }

// CommitJobs writes jobs.arrow from the finished run r, then moves it and
// the streamed files into place together: every file is complete and
// synced before the first is renamed.
func (s *Stream) CommitJobs(r *replay.Result) error {
	jobs, err := newTableStream(filepath.Join(s.dir, JobsFile), schemaOf(JobColumns, s.md, "jobs"))
	if err != nil {
		s.Abort()
		return err
	}
	if err := jobs.write(len(r.Jobs), func(b *array.RecordBuilder, lo, hi int) { fillJobs(b, r, s.md, lo, hi) }); err != nil {
		jobs.abort()
		s.Abort()
		return err
	}
	return s.commit(jobs)
}

func (s *Stream) commit(jobs *tableStream) error {
	var all []*tableStream
	for _, t := range []*tableStream{s.tasks, s.occ, jobs} {
		if t != nil {
			all = append(all, t)
		}
	}
	for _, t := range all {
		if err := t.finish(); err != nil {
			for _, u := range all {
				u.abort()
			}
			return err
		}
	}
	for i, t := range all {
		if err := t.file.Commit(); err != nil {
			for _, u := range all[i+1:] {
				u.abort()
			}
			return fmt.Errorf("%s: %w", t.path, err)
		}
	}
	return nil
}

// Abort removes the files not yet committed.
func (s *Stream) Abort() {
	for _, t := range []*tableStream{s.tasks, s.occ} {
		if t != nil {
			t.abort()
		}
	}
}

// tableStream is one Arrow IPC file being written a batch at a time: by a
// Stream as rows come, or by writeTable all at once.
type tableStream struct {
	path    string
	file    *atomicfile.Pending
	w       *ipc.FileWriter
	b       *array.RecordBuilder
	pending int // rows in b
	rows    int // rows written in all
	err     error
}

func newTableStream(path string, schema *arrow.Schema) (*tableStream, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(f.File(), ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		f.Abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &tableStream{path: path, file: f, w: w, b: array.NewRecordBuilder(mem, schema)}, nil
}

// write appends n rows, fill(b, lo, hi) appending rows [lo, hi), and
// writes every batch that fills up.
func (t *tableStream) write(n int, fill func(b *array.RecordBuilder, lo, hi int)) error {
	for lo := 0; lo < n && t.err == nil; {
		hi := min(lo+batchRows-t.pending, n)
		fill(t.b, lo, hi)
		t.pending += hi - lo
		lo = hi
		if t.pending == batchRows {
			t.flush()
		}
	}
	return t.err
}

func (t *tableStream) flush() {
	rec := t.b.NewRecord()
	defer rec.Release()
	if err := t.w.Write(rec); err != nil && t.err == nil {
		t.err = fmt.Errorf("%s: %w", t.path, err)
	}
	t.rows += t.pending
	t.pending = 0
}

func (t *tableStream) commit() error {
	if err := t.finish(); err != nil {
		return err
	}
	if err := t.file.Commit(); err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

// finish writes the last batch and the file's footer, leaving the file
// hidden; it removes the file on failure.
func (t *tableStream) finish() error {
	// The last, partial batch; a table with no rows still gets one, empty.
	if t.pending > 0 || t.rows == 0 {
		t.flush()
	}
	t.b.Release()
	if t.err != nil {
		t.file.Abort()
		return t.err
	}
	if err := t.w.Close(); err != nil {
		t.file.Abort()
		return fmt.Errorf("%s: %w", t.path, err)
	}
	return nil
}

func (t *tableStream) abort() {
	t.file.Abort()
}

var _ replay.RowSink = (*Stream)(nil)
