package swim

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseTSV(t *testing.T) {
	// Synthetic rows: a plain one, one with a trailing TAB, one with an
	// input path and an empty output path (as in the withInputPaths file),
	// a CRLF ending and a blank line.
	in := "j0\t5\t5\t100\t0\t7\n" +
		"j1\t9\t4\t2000\t30\t40\t\n" +
		"\n" +
		"j2\t9\t0\t0\t1\t0\tinputPath1\t\t\r\n"
	src, err := ParseTSV(strings.NewReader(in), "dir/synthetic.tsv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{ID: "j0", Submit: 5, Gap: 5, InputBytes: 100, ShuffleBytes: 0, OutputBytes: 7},
		{ID: "j1", Submit: 9, Gap: 4, InputBytes: 2000, ShuffleBytes: 30, OutputBytes: 40},
		{ID: "j2", Submit: 9, Gap: 0, InputBytes: 0, ShuffleBytes: 1, OutputBytes: 0, InputPath: "inputPath1"},
	}
	if !reflect.DeepEqual(src.Records, want) {
		t.Errorf("records:\n got %+v\nwant %+v", src.Records, want)
	}
	if src.Name != "synthetic.tsv" || len(src.SHA256) != 64 {
		t.Errorf("name %q, sha256 %q", src.Name, src.SHA256)
	}
}

func TestParseTSVErrors(t *testing.T) {
	good := "j0\t1\t1\t10\t20\t30\n"
	for _, c := range []struct {
		name       string
		bad        string
		line, col  int
		msgContain string
	}{
		{"too few columns", "j1\t2\t1\t10\t20", 2, 0, "5 columns; want at least 6"},
		{"bytes not an integer", "j1\t2\t1\t12x\t20\t30", 2, 4, `column 4 (map_input_bytes): "12x"`},
		{"negative shuffle", "j1\t2\t1\t10\t-5\t30", 2, 5, "column 5 (shuffle_bytes)"},
		{"float output", "j1\t2\t1\t10\t5\t3.5", 2, 6, "column 6 (reduce_output_bytes)"},
		{"submit before previous", "j1\t0.5\t1\t10\t20\t30", 2, 2, "before the previous job's 1 s"},
		{"bad gap", "j1\t2\tNaN\t10\t20\t30", 2, 3, "column 3 (gap_s)"},
		{"negative submit", "j1\t-2\t1\t10\t20\t30", 2, 2, "column 2 (submit_s)"},
		{"extra column", "j1\t2\t1\t10\t20\t30\tin\tout\tmore", 2, 9, `unexpected value "more"`},
		{"empty id", "\t2\t1\t10\t20\t30", 2, 1, "empty job id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTSV(strings.NewReader(good+c.bad+"\n"+good), "w.tsv")
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v; want a *ParseError wrapping ErrMalformed", err)
			}
			if pe.Line != c.line || pe.Column != c.col {
				t.Errorf("line %d column %d; want line %d column %d", pe.Line, pe.Column, c.line, c.col)
			}
			prefix := "w.tsv:2: "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.msgContain) {
				t.Errorf("message %q; want prefix %q and %q", msg, prefix, c.msgContain)
			}
		})
	}
}

func TestReadTSVMissingFile(t *testing.T) {
	if _, err := ReadTSV(filepath.Join(t.TempDir(), "none.tsv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v; want os.ErrNotExist", err)
	}
}

// TestReadSWIMSamples imports the five public SWIM samples: one job per
// line, as many as wc -l counts.
func TestReadSWIMSamples(t *testing.T) {
	needData(t)
	var first50, full []Record
	for _, c := range []struct {
		file  string
		jobs  int
		nodes int
	}{
		{"FB-2009_samples_24_times_1hr_0.tsv", 5894, 600},
		{"FB-2009_samples_24_times_1hr_1.tsv", 6638, 600},
		{"FB-2009_samples_24_times_1hr_0_first50jobs.tsv", 50, 600},
		{"FB-2010_samples_24_times_1hr_0.tsv", 24442, 3000},
		{"FB-2010_samples_24_times_1hr_withInputPaths_0.tsv", 25428, 3000},
	} {
		path := filepath.Join(dataDir, c.file)
		src, err := ReadTSV(path)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(raw), "\n"); len(src.Records) != c.jobs || lines != c.jobs {
			t.Errorf("%s: %d jobs from %d lines; want %d", c.file, len(src.Records), lines, c.jobs)
		}
		if n, ok := OriginalNodesFor(path); !ok || n != c.nodes {
			t.Errorf("OriginalNodesFor(%s) = %d, %v; want %d", c.file, n, ok, c.nodes)
		}
		switch c.file {
		case "FB-2009_samples_24_times_1hr_0.tsv":
			full = src.Records
		case "FB-2009_samples_24_times_1hr_0_first50jobs.tsv":
			first50 = src.Records
		case "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv":
			if src.Records[0].InputPath == "" {
				t.Errorf("%s: no input path on the first row", c.file)
			}
		}
	}
	if !reflect.DeepEqual(first50, full[:50]) {
		t.Error("the first50jobs file is not the first 50 rows of FB-2009 _0")
	}
}

func TestOriginalNodesFor(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"/x/FB-2009_samples_24_times_1hr_1.tsv", 600, true},
		{"fb-2010-first200.tsv", 3000, true},
		{"mine.tsv", 0, false},
		{"2009-vs-2010.tsv", 0, false},
	} {
		if n, ok := OriginalNodesFor(c.name); n != c.n || ok != c.ok {
			t.Errorf("OriginalNodesFor(%q) = %d, %v; want %d, %v", c.name, n, ok, c.n, c.ok)
		}
	}
}
