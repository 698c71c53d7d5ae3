package results

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"sojourn/replay"
)

// TestStreamMatchesWriteAll: rows streamed to disk during the replay (by
// a Stream committed with CommitJobs) give the very bytes WriteAll gives from the finished Result,
// over several batches of tasks and occupancy rows, with kills and
// losses; and the streamed Result holds none of them.
func TestStreamMatchesWriteAll(t *testing.T) {
	tr := testTrace(8000)
	whole, streamed := t.TempDir(), t.TempDir()
	r := runAndWrite(t, whole, tr)
	if r.Segments.Len() <= 2*batchRows || r.Occupancy.Len() <= 2*batchRows {
		t.Fatalf("only %d segments and %d occupancy rows; the test needs several batches", r.Segments.Len(), r.Occupancy.Len())
	}

	cfg := replay.Config{Nodes: 10, Seed: 3, RecordTasks: true, RecordOccupancy: true, MTBF: 2000, MTTR: 100}
	e, err := replay.New(tr, &replay.FIFO{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewStream(streamed, RunMetadata("fifo-minimal", e.Config(), tr, nil), true, true)
	if err != nil {
		t.Fatal(err)
	}
	e.StreamRows(s)
	r2, err := e.Run()
	if err != nil {
		s.Abort()
		t.Fatal(err)
	}
	if err := s.CommitJobs(r2); err != nil {
		t.Fatal(err)
	}
	if r2.Segments.Len() != 0 || r2.Occupancy.Len() != 0 {
		t.Errorf("streamed result still holds %d segments and %d occupancy rows", r2.Segments.Len(), r2.Occupancy.Len())
	}
	for _, name := range []string{JobsFile, TasksFile, OccupancyFile} {
		a, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(streamed, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: streamed file (%d bytes) differs from the one written whole (%d bytes)", name, len(b), len(a))
		}
	}
	assertOnly(t, streamed, JobsFile, OccupancyFile, TasksFile)
}

// TestStreamAbort: an aborted stream leaves no file, not even a temporary
// one; a sink's error stops the replay and is returned.
func TestStreamAbort(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	s, err := NewStream(dir, map[string]string{}, true, true)
	if err != nil {
		t.Fatal(err)
	}
	var seg replay.Segments
	seg.Job, seg.Kind, seg.Task, seg.Attempt, seg.Node = []int32{0}, []replay.TaskKind{0}, []int32{0}, []int32{1}, []int32{0}
	seg.Start, seg.End, seg.Swap = []replay.Time{0}, []replay.Time{5}, []replay.Time{0}
	seg.Locality, seg.Outcome = []replay.Locality{0}, []replay.Outcome{0}
	if err := s.WriteSegments(&seg); err != nil {
		t.Fatal(err)
	}
	s.Abort()
	assertOnly(t, dir)

	boom := errors.New("disk full")
	e, err := replay.New(testTrace(3000), &replay.FIFO{}, replay.Config{Nodes: 10, RecordTasks: true})
	if err != nil {
		t.Fatal(err)
	}
	e.StreamRows(failingSink{boom})
	if _, err := e.Run(); !errors.Is(err, boom) {
		t.Fatalf("Run with a failing sink: %v, want %v", err, boom)
	}
}

type failingSink struct{ err error }

func (f failingSink) WriteSegments(*replay.Segments) error   { return f.err }
func (f failingSink) WriteOccupancy(*replay.Occupancy) error { return f.err }

// assertOnly checks that dir holds exactly the files names (sorted).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("%s holds %v, want %v", dir, got, names)
		}
	}
}
