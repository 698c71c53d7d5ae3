package traces

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// writeVersion1 writes t as a schema version 1 file: the first 16
// columns, without user_estimate_s, as this package wrote them before
// version 2. withEstimate adds the version 2 column anyway (a bad file).
func writeVersion1(t *testing.T, path string, tr *Trace, withEstimate bool) {
	t.Helper()
	n := 16
	if withEstimate {
		n = len(Columns)
	}
	writeOldVersion(t, path, tr, "1", n)
}

// writeOldVersion writes t with the first n columns and the given schema
// version, as an earlier build of this package would have.
func writeOldVersion(t *testing.T, path string, tr *Trace, version string, n int) {
	t.Helper()
	mem := memory.NewGoAllocator()
	full := Schema(tr)
	b := array.NewRecordBuilder(mem, full)
	defer b.Release()
	for i := range tr.Jobs {
		appendJob(b, &tr.Jobs[i])
	}
	rec := b.NewRecord()
	defer rec.Release()
	md := full.Metadata()
	keys, vals := md.Keys(), md.Values()
	vals = append([]string(nil), vals...)
	for i, k := range keys {
		if k == KeySchemaVersion {
			vals[i] = version
		}
	}
	m := arrow.NewMetadata(keys, vals)
	schema := arrow.NewSchema(full.Fields()[:n], &m)
	v1 := array.NewRecord(schema, rec.Columns()[:n], rec.NumRows())
	defer v1.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fw, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(v1); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReadsVersion1: a version 1 file (no user_estimate_s column) reads,
// whole and job by job, as the same jobs without estimates.
func TestReadsVersion1(t *testing.T) {
	want := sample()
	path := filepath.Join(t.TempDir(), "v1.arrow")
	writeVersion1(t, path, want, false)
	got, err := Read(path)
	if err != nil {
		t.Fatalf("reading a version 1 trace: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version 1 trace read as\n %+v\nwant %+v", got, want)
	}
	streamed, err := readAll(t, path)
	if err != nil || !reflect.DeepEqual(streamed, want) {
		t.Fatalf("version 1 trace read job by job: %v\n %+v", err, streamed)
	}
}

// TestVersion1WithEstimateColumn: a version 1 file cannot hold the
// version 2 column.
func TestVersion1WithEstimateColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.arrow")
	writeVersion1(t, path, sample(), true)
	if _, err := Read(path); !errors.Is(err, ErrNotTrace) {
		t.Fatalf("a version 1 file with %s: %v, want ErrNotTrace", ColEstimate, err)
	}
}

// TestEstimateRoundTrip: estimates, zero included, and their absence
// (null) survive a write and a read, and the file says version 2.
func TestEstimateRoundTrip(t *testing.T) {
	want := sample()
	want.Jobs[1].Estimate, want.Jobs[1].HasEstimate = 420.5, true
	want.Jobs = append(want.Jobs, want.Jobs[1])
	want.Jobs[2].ID, want.Jobs[2].Estimate = 6, 0
	want.Jobs[0].SourceLine, want.Jobs[2].SourceLine = 3, 1<<40
	want.Jobs[1].MapCores, want.Jobs[2].ReduceCores = 0.5, 2
	path := filepath.Join(t.TempDir(), "v2.arrow")
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got.Jobs, want.Jobs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fr, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	if v, _ := fr.Schema().Metadata().GetValue(KeySchemaVersion); v != "3" {
		t.Fatalf("schema version %q, want 3", v)
	}
}

// TestReadsVersion2: a version 2 file (without the rigid column) reads,
// its jobs not rigid; a version 2 file with the column is refused.
func TestReadsVersion2(t *testing.T) {
	want := sample()
	want.Jobs[0].Estimate, want.Jobs[0].HasEstimate, want.Jobs[0].SourceLine = 12, true, 4
	path := filepath.Join(t.TempDir(), "v2.arrow")
	writeOldVersion(t, path, want, "2", len(Columns)-1)
	got, err := Read(path)
	if err != nil {
		t.Fatalf("reading a version 2 trace: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version 2 trace read as\n %+v\nwant %+v", got, want)
	}
	writeOldVersion(t, path, want, "2", len(Columns))
	if _, err := Read(path); !errors.Is(err, ErrNotTrace) {
		t.Fatalf("a version 2 file with %s: %v, want ErrNotTrace", ColRigid, err)
	}
}

// TestRigidRoundTrip: the rigid flag survives a write and a read; a rigid
// job with reduces is refused, naming the row and the column.
func TestRigidRoundTrip(t *testing.T) {
	want := sample()
	for i := range want.Jobs {
		if want.Jobs[i].Reduces() == 0 {
			want.Jobs[i].Rigid = true
		}
	}
	path := filepath.Join(t.TempDir(), "rigid.arrow")
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, got, want)
	}
	for i := range want.Jobs {
		if want.Jobs[i].Reduces() > 0 {
			bad := sample()
			bad.Jobs[i].Rigid = true
			var re *RowError
			if err := bad.Validate(); !errors.As(err, &re) || re.Column != ColRigid || re.Row != i {
				t.Errorf("a rigid job with reduces: %v, want a RowError at row %d, column %s", err, i, ColRigid)
			}
			return
		}
	}
	t.Fatal("the sample has no job with reduces")
}

// TestEstimateValidated: a negative, NaN or infinite estimate is refused,
// naming the column.
func TestEstimateValidated(t *testing.T) {
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		tr := sample()
		tr.Jobs[0].Estimate, tr.Jobs[0].HasEstimate = bad, true
		var re *RowError
		if err := tr.Validate(); !errors.As(err, &re) || re.Column != ColEstimate || re.Row != 0 {
			t.Errorf("estimate %v: %v, want a RowError at row 0, column %s", bad, err, ColEstimate)
		}
	}
	for _, col := range []string{ColMapCores, ColReduceCores} {
		tr := sample()
		if col == ColMapCores {
			tr.Jobs[1].MapCores = -1
		} else {
			tr.Jobs[1].ReduceCores = math.NaN()
		}
		var re *RowError
		if err := tr.Validate(); !errors.As(err, &re) || re.Column != col || re.Row != 1 {
			t.Errorf("bad %s: %v, want a RowError at row 1", col, err)
		}
	}
	tr := sample()
	tr.Jobs[0].Estimate = 5 // without HasEstimate
	if err := tr.Validate(); err == nil {
		t.Error("an estimate without HasEstimate was accepted")
	}
}
