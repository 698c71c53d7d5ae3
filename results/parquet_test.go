package results

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"
)

// readArrowTable reads an Arrow IPC file into one table.
func readArrowTable(t *testing.T, path string) arrow.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []arrow.Record
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rec.Retain()
		recs = append(recs, rec)
	}
	return array.NewTableFromRecords(r.Schema(), recs)
}

func readParquetTable(t *testing.T, path string) (arrow.Table, map[string]string) {
	t.Helper()
	rdr, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	// hyparquet, among others, misreads the pages of a file whose root is
	// REPEATED, the Go writer's default (make interop found it).
	if rep := rdr.MetaData().Schema.Root().RepetitionType(); rep != parquet.Repetitions.Required {
		t.Errorf("%s: root repetition %v, want required", path, rep)
	}
	kv := map[string]string{}
	for _, e := range rdr.MetaData().KeyValueMetadata() {
		if e.Value != nil {
			kv[e.Key] = *e.Value
		}
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 16}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl, kv
}

// cellText renders column c of tbl as one string per row, with nulls
// marked, so that an Arrow and a Parquet table compare value by value
// whatever their chunking or dictionary index width.
func cellText(t *testing.T, tbl arrow.Table, name string) []string {
	t.Helper()
	idx := tbl.Schema().FieldIndices(name)
	if len(idx) == 0 {
		t.Fatalf("column %s missing", name)
	}
	var out []string
	for _, ch := range tbl.Column(idx[0]).Data().Chunks() {
		for i := 0; i < ch.Len(); i++ {
			if ch.IsNull(i) {
				out = append(out, "<null>")
				continue
			}
			out = append(out, ch.ValueStr(i))
		}
	}
	return out
}

// TestParquetRoundTrip converts jobs, tasks (several row groups and
// dictionary columns) and occupancy files and reads them back with
// pqarrow: same rows, same values, same column types, same metadata.
func TestParquetRoundTrip(t *testing.T) {
	tr := testTrace(6000)
	dir := t.TempDir()
	r := runAndWrite(t, dir, tr)
	pq := t.TempDir()
	if err := WriteAllFormat(pq, r, Metadata(r, tr, nil), Parquet); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cols []Column
		rows int
	}{{JobsFile, JobColumns, len(r.Jobs)}, {TasksFile, TaskColumns, r.Segments.Len()}, {OccupancyFile, OccupancyColumns, r.Occupancy.Len()}} {
		if _, err := os.Stat(filepath.Join(pq, c.name)); !os.IsNotExist(err) {
			t.Errorf("%s left beside its Parquet version", c.name)
		}
		want := readArrowTable(t, filepath.Join(dir, c.name))
		got, kv := readParquetTable(t, filepath.Join(pq, Parquet.FileName(c.name)))
		if got.NumRows() != int64(c.rows) || want.NumRows() != int64(c.rows) {
			t.Fatalf("%s: %d Parquet rows, %d Arrow rows, want %d", c.name, got.NumRows(), want.NumRows(), c.rows)
		}
		for _, col := range c.cols {
			w, g := cellText(t, want, col.Name), cellText(t, got, col.Name)
			for i := range w {
				if w[i] != g[i] {
					t.Fatalf("%s row %d column %s: Parquet %s, Arrow %s", c.name, i, col.Name, g[i], w[i])
				}
			}
			f, _ := got.Schema().FieldsByName(col.Name)
			if gt := f[0].Type; gt.ID() != col.Type.ID() {
				t.Errorf("%s column %s: type %s, want %s", c.name, col.Name, gt, col.Type)
			}
		}
		kind := strings.TrimSuffix(c.name, ".arrow")
		if kv[KeyKind] != kind || kv[KeySchemaVersion] != SchemaVersion || kv["replay.seed"] != "3" {
			t.Errorf("%s: Parquet metadata lacks the result metadata: %v", c.name, kv)
		}
	}
	// Deterministic bytes, like the Arrow files.
	again := t.TempDir()
	if err := WriteAllFormat(again, r, Metadata(r, tr, nil), Parquet); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(pq, "tasks.parquet"))
	y, _ := os.ReadFile(filepath.Join(again, "tasks.parquet"))
	if !bytes.Equal(x, y) {
		t.Error("tasks.parquet differs between two conversions of the same result")
	}
}

func TestConvertDirAndErrors(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	runAndWrite(t, sub, testTrace(20))
	if err := os.WriteFile(filepath.Join(dir, "trace.arrow"), []byte("not a result"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ConvertDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a/b/jobs.parquet", "a/b/tasks.parquet", "a/b/occupancy.parquet", "trace.arrow"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("after ConvertDir: %v", err)
		}
	}
	bad := filepath.Join(dir, "bad.arrow")
	os.WriteFile(bad, []byte("garbage"), 0o644)
	if err := ToParquet(bad, filepath.Join(dir, "bad.parquet")); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("converting garbage: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.parquet")); !os.IsNotExist(err) {
		t.Error("a failed conversion left its output")
	}
	if _, err := ParseFormat("tsv"); err == nil || err.Error() != `format "tsv": want arrow, parquet or csv` {
		t.Errorf("ParseFormat(tsv): %v", err)
	}
}
