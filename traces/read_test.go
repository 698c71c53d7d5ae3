package traces

import (
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// readAll reads path job by job.
func readAll(t *testing.T, path string) (*Trace, error) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	got := &Trace{Params: r.Params()}
	for {
		var j Job
		switch err := r.Next(&j); {
		case errors.Is(err, io.EOF):
			if len(got.Jobs) != r.Len() {
				t.Fatalf("Len %d, read %d jobs", r.Len(), len(got.Jobs))
			}
			return got, nil
		case err != nil:
			return got, err
		}
		got.Jobs = append(got.Jobs, j)
	}
}

// bigJobs has batches cut by the task count as well as by rows.
func bigJobs(n, tasks int) *Trace {
	tr := &Trace{Params: map[string]string{}}
	for i := range n {
		m := make([]float64, tasks)
		for k := range m {
			m[k] = float64(k % 7)
		}
		tr.Jobs = append(tr.Jobs, Job{ID: int64(i), Submit: float64(i), MapDurations: m,
			ReduceDurations: []float64{1}, ReduceShuffleBytes: []int64{5}})
	}
	return tr
}

// TestReaderMatchesRead: reading job by job gives the trace Read gives,
// with or without a declared job count, across batches cut by rows and
// by tasks.
func TestReaderMatchesRead(t *testing.T) {
	for name, tr := range map[string]*Trace{"sample": sample(), "many rows": manyRows(2*batchRows + 5), "big jobs": bigJobs(9, batchTasks/4)} {
		for _, declared := range []bool{false, true} {
			if declared {
				tr.Params["generator.jobs"] = strconv.Itoa(len(tr.Jobs))
			}
			path := filepath.Join(t.TempDir(), "t.arrow")
			if err := Write(path, tr); err != nil {
				t.Fatal(err)
			}
			want, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s (declared count %v): the reader's trace differs from Read's", name, declared)
			}
		}
	}
}

func manyRows(n int) *Trace {
	tr := &Trace{Params: map[string]string{}}
	for i := range n {
		tr.Jobs = append(tr.Jobs, Job{ID: int64(i), Submit: float64(i) / 3,
			MapDurations: []float64{float64(i % 97)}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}})
	}
	return tr
}

// TestReaderErrors: a wrong declared count and a bad row are errors that
// name the problem and the row.
func TestReaderErrors(t *testing.T) {
	tr := sample()
	tr.Params["generator.jobs"] = "3"
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := Write(path, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(t, path); !errors.Is(err, ErrJobCount) {
		t.Fatalf("a trace declaring 3 jobs with 2: %v, want ErrJobCount", err)
	}
	tr.Params["generator.jobs"] = "1"
	if err := Write(path, tr); err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(t, path); !errors.Is(err, ErrJobCount) {
		t.Fatalf("a trace declaring 1 job with 2: %v, want ErrJobCount", err)
	}
	// A huge or malformed count is refused at Open, before anything is
	// sized from it, and by Read.
	for _, v := range []string{"9223372036854775807", "1e9", "-1", "two"} {
		tr.Params["generator.jobs"] = v
		if err := Write(path, tr); err != nil {
			t.Fatal(err)
		}
		if r, err := Open(path); !errors.Is(err, ErrJobCount) {
			if err == nil {
				r.Close()
			}
			t.Fatalf("Open of a trace declaring %s jobs with 2: %v, want ErrJobCount", v, err)
		}
		if _, err := Read(path); !errors.Is(err, ErrJobCount) {
			t.Fatalf("Read of a trace declaring %s jobs with 2: %v, want ErrJobCount", v, err)
		}
	}
}

// TestWriterValidates: the streaming writer refuses a row that breaks the
// schema's rules, naming the row.
func TestWriterValidates(t *testing.T) {
	tr := sample()
	err := Create(filepath.Join(t.TempDir(), "t.arrow"), tr.Params, func(w *Writer) error {
		for i := range tr.Jobs {
			if err := w.Write(&tr.Jobs[len(tr.Jobs)-1-i]); err != nil {
				return err
			}
		}
		return nil
	})
	var re *RowError
	if !errors.As(err, &re) || re.Row != 1 || re.Column != ColSubmit {
		t.Fatalf("rows out of submit order: %v, want a RowError at row 1, column %s", err, ColSubmit)
	}
}
