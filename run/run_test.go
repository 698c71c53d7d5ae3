package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sojourn/replay"
	"sojourn/results"
	"sojourn/schedulers"
	"sojourn/swim"
	"sojourn/traces"
)

func testTrace(t *testing.T) *traces.Trace {
	t.Helper()
	tr, err := swim.Generate(swim.Config{Profile: "fb2009", Seed: 3, Jobs: 12, Nodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func testCell(tr *traces.Trace) *Cell {
	return &Cell{Dir: "c", Trace: tr, TraceFile: "t.arrow", Policy: "fair", Options: map[string]string{"locality-delay": "0"},
		Cluster: replay.Config{Nodes: 10, Seed: 2}, Labels: map[string]string{"x": "1"}, Tasks: true, Occupancy: true}
}

func readAll(t *testing.T, dir string, names ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}

// A cell's files are the same bytes whether its rows stream to disk, are
// kept in memory, or its trace streams from a file; only a kept run
// holds its rows.
func TestReplayStreamedKeptAndFromFile(t *testing.T) {
	tr := testTrace(t)
	root := t.TempDir()
	streamed, err := Replay(testCell(tr), filepath.Join(root, "streamed"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if streamed.Result.Segments.Len() != 0 || streamed.Result.Occupancy.Len() != 0 {
		t.Errorf("streamed run kept %d segments, %d occupancy rows", streamed.Result.Segments.Len(), streamed.Result.Occupancy.Len())
	}
	c := testCell(tr)
	c.Keep = true
	kept, err := Replay(c, filepath.Join(root, "kept"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kept.Result.Segments.Len() == 0 || kept.Result.Occupancy.Len() == 0 {
		t.Error("kept run holds no rows")
	}
	path := filepath.Join(root, "t.arrow")
	if err := traces.Write(path, tr); err != nil {
		t.Fatal(err)
	}
	c = testCell(nil)
	c.TracePath = path
	if _, err := Replay(c, filepath.Join(root, "file"), Options{}); err != nil {
		t.Fatal(err)
	}
	names := []string{results.JobsFile, results.TasksFile, results.OccupancyFile}
	want := readAll(t, filepath.Join(root, "streamed"), names...)
	for _, d := range []string{"kept", "file"} {
		for n, b := range readAll(t, filepath.Join(root, d), names...) {
			if !bytes.Equal(b, want[n]) {
				t.Errorf("%s/%s differs from the streamed run's", d, n)
			}
		}
	}
}

// The policy.* metadata holds every option in force, defaults included,
// with the cell's settings; labels, the workload and the cell's metadata
// are there too.
func TestMetadata(t *testing.T) {
	tr := testTrace(t)
	c := testCell(tr)
	c.Metadata = map[string]string{"sweep.name": "s"}
	o, err := Replay(c, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	md := o.Metadata
	if md["policy.locality-delay"] != "0" || md["label.x"] != "1" || md["sweep.name"] != "s" || md["trace.file"] != "t.arrow" ||
		md["scheduler"] != "fair" || md["workload"] != "t" {
		t.Errorf("metadata %v", md)
	}
	p, _ := schedulers.Lookup("fair")
	for _, opt := range p.Options {
		if _, ok := md["policy."+opt.Name]; !ok {
			t.Errorf("policy.%s missing", opt.Name)
		}
	}
	c.Workload = "fb"
	if o, err = Replay(c, "", Options{}); err != nil {
		t.Fatal(err)
	}
	if o.Metadata["workload"] != "fb" {
		t.Errorf("workload %q, want the cell's fb", o.Metadata["workload"])
	}
}

// The hooks bracket the replay once each; without a directory nothing is
// written; a bad policy fails before any file exists.
func TestHooksAndNoFiles(t *testing.T) {
	tr := testTrace(t)
	var before, after int
	o, err := Replay(testCell(tr), "", Options{BeforeReplay: func() { before++ }, AfterReplay: func() { after++ }})
	if err != nil {
		t.Fatal(err)
	}
	if before != 1 || after != 1 || o.Wall <= 0 || len(o.Result.Jobs) != len(tr.Jobs) {
		t.Errorf("hooks %d, %d; wall %v; %d jobs", before, after, o.Wall, len(o.Result.Jobs))
	}
	dir := filepath.Join(t.TempDir(), "out")
	c := testCell(tr)
	c.Policy = "no-such-policy"
	if _, err := Replay(c, dir, Options{}); err == nil {
		t.Error("unknown policy accepted")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a failed cell left %s", dir)
	}
}

// Pool's outputs do not depend on its number of workers; a failure stops
// it and is reported for the lowest failed index; a cancelled context
// starts nothing.
func TestPool(t *testing.T) {
	tr := testTrace(t)
	var runs [2][]float64
	for k, workers := range []int{1, 3} {
		means := make([]float64, 6)
		_, err := Pool{Workers: workers}.Run(context.Background(), len(means), func(i int) error {
			c := testCell(tr)
			c.Cluster.Seed = uint64(i + 1)
			o, err := Replay(c, "", Options{})
			if err == nil {
				means[i] = o.Result.MeanSojourn()
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		runs[k] = means
	}
	if fmt.Sprint(runs[0]) != fmt.Sprint(runs[1]) {
		t.Errorf("1 worker: %v; 3 workers: %v", runs[0], runs[1])
	}

	var calls atomic.Int64
	boom := errors.New("boom")
	ok, err := Pool{Workers: 1}.Run(context.Background(), 10, func(i int) error {
		calls.Add(1)
		if i == 2 {
			return boom
		}
		return nil
	})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Index != 2 || !errors.Is(err, boom) || ok != 2 || calls.Load() != 3 {
		t.Errorf("fail fast: %d ok, %d calls, %v", ok, calls.Load(), err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := (Pool{Workers: 2}).Run(ctx, 5, func(int) error { calls.Add(1); return nil }); ok != 0 || err != nil {
		t.Errorf("cancelled: %d ok, %v", ok, err)
	}
}

// TestProgressFromFirstSecond: a run whose first replay is still going
// shows its progress from the first second on, with an estimate of the
// time left once a replay is done.
func TestProgressFromFirstSecond(t *testing.T) {
	var b syncBuffer
	p := NewProgress(&b)
	p.Start("sweep x", 4)
	time.Sleep(1300 * time.Millisecond)
	if got := b.String(); !strings.Contains(got, "0/4 replays, 1 s, ETA –") {
		t.Errorf("after 1.3 s with nothing done: %q", got)
	}
	p.Step()
	time.Sleep(lineEvery + 300*time.Millisecond)
	p.Finish()
	if got := b.String(); !strings.Contains(got, "1/4 replays") || !strings.Contains(got, ", ETA ") {
		t.Errorf("progress %q lacks 1/4 with an ETA", got)
	}
}

// syncBuffer is a bytes.Buffer safe for the progress ticker.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
