package results

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSV converts jobs, tasks (several record batches, dictionary
// columns) and occupancy files to CSV and reads them back with
// encoding/csv: a header of the schema's columns, then the Arrow file's
// values row by row, nulls as empty fields; the jobs rows carry the run's
// policy, seed and workload.
func TestCSV(t *testing.T) {
	tr := testTrace(6000)
	dir := t.TempDir()
	r := runAndWrite(t, dir, tr)
	out := t.TempDir()
	md := Metadata(r, tr, map[string]string{KeyWorkload: `w, "quoted"`})
	if err := WriteAllFormat(out, r, md, CSV); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cols []Column
	}{{JobsFile, JobColumns}, {TasksFile, TaskColumns}, {OccupancyFile, OccupancyColumns}} {
		if _, err := os.Stat(filepath.Join(out, c.name)); !os.IsNotExist(err) {
			t.Errorf("%s left beside its CSV version", c.name)
		}
		path := filepath.Join(out, CSV.FileName(c.name))
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(raw), "\r\n") {
			t.Errorf("%s: lines do not end in CRLF", path)
		}
		rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want := readArrowTable(t, filepath.Join(dir, c.name))
		if int64(len(rows)-1) != want.NumRows() {
			t.Fatalf("%s: %d rows, want %d", path, len(rows)-1, want.NumRows())
		}
		for k, col := range c.cols {
			if rows[0][k] != col.Name {
				t.Fatalf("%s: header column %d is %q, want %q", path, k, rows[0][k], col.Name)
			}
			if c.name == JobsFile && k < 3 {
				continue // the identity columns, checked below (the Arrow file was written without a workload)
			}
			w := cellText(t, want, col.Name)
			for i := range w {
				if w[i] == "<null>" {
					w[i] = ""
				}
				if rows[i+1][k] != w[i] {
					t.Fatalf("%s row %d column %s: CSV %q, Arrow %q", path, i, col.Name, rows[i+1][k], w[i])
				}
			}
		}
		if c.name == JobsFile {
			if got := rows[1][:3]; got[0] != r.Scheduler || got[1] != "3" || got[2] != `w, "quoted"` {
				t.Errorf("jobs.csv identity columns %q", got)
			}
		}
	}
}
