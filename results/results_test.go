package results

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"sojourn/replay"
	"sojourn/traces"
)

// testTrace is a small mixed workload: many short jobs and a few with
// reduces, enough segments for several record batches of tasks.
func testTrace(n int) *traces.Trace {
	tr := &traces.Trace{Params: map[string]string{"generator": "test"}}
	for i := 0; i < n; i++ {
		maps := make([]float64, 1+(i*7)%40)
		for k := range maps {
			maps[k] = 5 + float64((i+k)%13)
		}
		var reds []float64
		var sh []int64
		if i%3 == 0 {
			reds = []float64{20, 30}
			sh = []int64{50e6, 70e6}
		} else {
			reds, sh = []float64{}, []int64{}
		}
		tr.Jobs = append(tr.Jobs, traces.Job{ID: int64(i), Submit: float64(i) * 2, Class: "c", Pool: "p",
			MapDurations: maps, ReduceDurations: reds, ReduceShuffleBytes: sh, ReduceMemoryBytes: 1 << 30})
	}
	return tr
}

// runFIFO replays tr under FIFO on 10 nodes with failures, recording
// tasks and occupancy.
func runFIFO(tr *traces.Trace) (*replay.Result, error) {
	return replay.Run(tr, &replay.FIFO{}, replay.Config{Nodes: 10, Seed: 3, RecordTasks: true, RecordOccupancy: true, MTBF: 2000, MTTR: 100})
}

func runAndWrite(t *testing.T, dir string, tr *traces.Trace) *replay.Result {
	t.Helper()
	r, err := runFIFO(tr)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(dir, r, Metadata(r, tr, nil)); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestByteIdenticalResults: the same trace, policy and seed give the same
// bytes, whatever GOMAXPROCS is.
func TestByteIdenticalResults(t *testing.T) {
	tr := testTrace(3000)
	a, b := t.TempDir(), t.TempDir()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	runAndWrite(t, a, tr)
	runtime.GOMAXPROCS(2)
	runAndWrite(t, b, tr)
	for _, f := range []string{JobsFile, TasksFile, OccupancyFile} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs between two identical runs", f)
		}
	}
}

func TestJobsRoundTrip(t *testing.T) {
	tr := testTrace(500)
	dir := t.TempDir()
	r := runAndWrite(t, dir, tr)
	got, err := ReadJobs(filepath.Join(dir, JobsFile))
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != len(r.Jobs) {
		t.Fatalf("%d rows, want %d", got.Len(), len(r.Jobs))
	}
	for i, j := range r.Jobs {
		if got.Sojourn[i] != j.Sojourn().Sec() || got.Maps[i] != j.Maps || got.NodeLocal[i] != j.NodeLocal {
			t.Fatalf("row %d differs: %v vs %+v", i, got.Sojourn[i], j)
		}
		if (j.Reduces == 0) != math.IsNaN(got.ReduceSojourn[i]) {
			t.Fatalf("row %d: reduce sojourn %v for %d reduces", i, got.ReduceSojourn[i], j.Reduces)
		}
	}
	if got.Meta["scheduler"] != "fifo-minimal" || got.Meta["trace.generator"] != "test" || got.Meta["replay.seed"] != "3" {
		t.Fatalf("metadata incomplete: %v", got.Meta)
	}
}

// TestTasksFileReadable reads tasks.arrow, which spans several record
// batches, with the plain Arrow reader and counts its rows.
func TestTasksFileReadable(t *testing.T) {
	tr := testTrace(6000)
	dir := t.TempDir()
	r := runAndWrite(t, dir, tr)
	if r.Segments.Len() <= batchRows {
		t.Fatalf("only %d segments; the test needs several batches", r.Segments.Len())
	}
	f, err := os.Open(filepath.Join(dir, TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for i := 0; i < rd.NumRecords(); i++ {
		rec, err := rd.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rows += int(rec.NumRows())
	}
	if rows != r.Segments.Len() {
		t.Fatalf("tasks.arrow has %d rows, want %d", rows, r.Segments.Len())
	}
}

// TestDictionaryStableAcrossBatches: a category absent from the first
// record batch (here, suspensions late in the run) must not change the
// dictionary, which the Arrow IPC file format forbids.
func TestDictionaryStableAcrossBatches(t *testing.T) {
	r := &replay.Result{Config: replay.Config{RecordTasks: true}}
	s := &r.Segments
	for i := 0; i < 2*batchRows+5; i++ {
		out := replay.OutcomeFinished
		if i > batchRows+3 {
			out = replay.Outcome(i % 4)
		}
		s.Job = append(s.Job, 0)
		s.Kind = append(s.Kind, replay.TaskKind(i%2))
		s.Task = append(s.Task, int32(i))
		s.Attempt = append(s.Attempt, 1)
		s.Node = append(s.Node, 0)
		s.Start = append(s.Start, replay.Time(i))
		s.End = append(s.End, replay.Time(i+1))
		s.Swap = append(s.Swap, 0)
		s.Locality = append(s.Locality, replay.Locality(i%3))
		s.Outcome = append(s.Outcome, out)
	}
	path := filepath.Join(t.TempDir(), TasksFile)
	if err := WriteTasks(path, r, nil); err != nil {
		t.Fatal(err)
	}
	// Read back: every row's outcome names the code written.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	row := 0
	for b := 0; b < rd.NumRecords(); b++ {
		rec, err := rd.Record(b)
		if err != nil {
			t.Fatal(err)
		}
		col := rec.Column(9).(*array.Dictionary)
		dict := col.Dictionary().(*array.String)
		for i := 0; i < col.Len(); i++ {
			if got, want := dict.Value(col.GetValueIndex(i)), s.Outcome[row].String(); got != want {
				t.Fatalf("row %d (batch %d): outcome %q, want %q", row, b, got, want)
			}
			row++
		}
	}
	if row != s.Len() {
		t.Fatalf("read %d rows, wrote %d", row, s.Len())
	}
}

// TestReadTasks reads back what WriteAll wrote: every segment, its kind
// and outcome.
func TestReadTasks(t *testing.T) {
	dir := t.TempDir()
	r := runAndWrite(t, dir, testTrace(3000))
	got, err := ReadTasks(filepath.Join(dir, TasksFile))
	if err != nil {
		t.Fatal(err)
	}
	s := &r.Segments
	if got.Len() != s.Len() {
		t.Fatalf("%d segments, want %d", got.Len(), s.Len())
	}
	for i := 0; i < s.Len(); i++ {
		if got.Job[i] != s.Job[i] || got.Start[i] != s.Start[i].Sec() || got.End[i] != s.End[i].Sec() ||
			got.Reduce[i] != (s.Kind[i] == 1) || got.Outcome[i] != outcomeNames[s.Outcome[i]] || got.Node[i] != s.Node[i] {
			t.Fatalf("segment %d differs", i)
		}
	}
	if _, err := ReadTasks(filepath.Join(dir, JobsFile)); err == nil {
		t.Error("a jobs file read as tasks")
	}
}
