package formats

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// endless is a reader of n copies of b and nothing else: /dev/zero with
// an end, so that a test that reads it whole fails instead of hanging.
type endless struct {
	b byte
	n int
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), e.n)
	for i := range p[:k] {
		p[i] = e.b
	}
	e.n -= k
	return k, nil
}

// TestReadersBoundLines: a line (or a CSV row) beyond MaxLine is one
// error naming the line, read with about MaxLine bytes of memory, in
// every importer.
func TestReadersBoundLines(t *testing.T) {
	for _, c := range []struct {
		format, head, msg string
		b                 byte
		line              int
	}{
		{"csv", "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n", "a line longer than", '0', 2},
		{"csv", "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n0,1,0,\"", "a row longer than", '\n', 0},
		{"swf", "", "a line longer than", '0', 1},
		{"sls", "{\"job.start.ms\": 0, \"job.id\": \"", "a line longer than", 'a', 1},
		{"alibaba2018", "", "a line longer than", 0, 1},
	} {
		t.Run(c.format+" "+c.msg, func(t *testing.T) {
			r := io.MultiReader(strings.NewReader(c.head), &endless{b: c.b, n: 64 << 20})
			opt := Options{Name: "in." + c.format}
			var imp Importer
			var err error
			switch c.format {
			case "csv":
				imp, err = NewCSV(r, opt)
			case "swf":
				imp, err = NewSWF(r, opt)
			case "sls":
				imp, err = NewSLS(r, opt)
			case "alibaba2018":
				imp, err = NewAlibaba(r, opt, 0)
			}
			if err == nil {
				_, err = importAll(imp)
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.msg) || (c.line > 0 && e.Line != c.line) {
				t.Fatalf("error %v; want line %d: %q", err, c.line, c.msg)
			}
			if len(err.Error()) > 300 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
		})
	}
}

// TestReadersRefuseBadUTF8: bytes that are not UTF-8 are refused with
// their line and column, in every importer, where a reader would have
// stored them raw or replaced them without a word.
func TestReadersRefuseBadUTF8(t *testing.T) {
	for _, c := range []struct{ format, data, msg string }{
		{"csv", "submit_s,name,maps,reduces,map_durations_s,reduce_durations_s\n0,ok,1,0,1,\n0,a\xffb,1,0,1,\n", "column 4: byte 0xff"},
		{"swf", "; Computer: \xc3\n1 0 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n", "column 13: byte 0xc3"},
		{"sls", "{\"job.start.ms\": 0,\n \"job.id\": \"\xfe\", \"job.tasks\": [{\"duration.ms\": 1}]}\n", "column 13: byte 0xfe"},
		{"alibaba2018", "M1,1,j_\xe2\x82,1,Terminated,1,2,100,0.5\n", "column 8: byte 0xe2"},
	} {
		t.Run(c.format, func(t *testing.T) {
			_, _, err := importString(c.format, c.data, Options{})
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.msg) || e.Line != strings.Count(c.data[:strings.IndexAny(c.data, "\xff\xfe\xc3\xe2")], "\n")+1 {
				t.Fatalf("error %v; want the line and %q", err, c.msg)
			}
		})
	}
}

func TestSLSRefusesWhatJSONWouldHide(t *testing.T) {
	checkBad(t, "sls", []badCase{
		{"duplicate key", "{\"job.start.ms\": 0,\n \"job.tasks\": [{\"duration.ms\": 1}],\n \"job.start.ms\": 5}\n", 3, "job.start.ms", "given twice"},
		{"duplicate task key", "{\"job.start.ms\": 0, \"job.tasks\": [\n{\"duration.ms\": 1, \"duration.ms\": 9}]}\n", 2, "duration.ms", "given twice"},
		{"lone surrogate", "{\"job.start.ms\": 0, \"job.id\": \"a\\ud800\", \"job.tasks\": [{\"duration.ms\": 1}]}\n", 1, "job.id", "lone surrogate"},
	})
}

// TestErrorsQuoteShortly: an error quotes at most about 100 bytes of a
// value, however long.
func TestErrorsQuoteShortly(t *testing.T) {
	long := strings.Repeat("x", 500_000)
	for _, c := range []struct{ format, data string }{
		{"csv", "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n" + long + ",1,0,1,\n"},
		{"swf", "1 " + long + " 5 100 4 -1 -1 4 200 1024 1 3 7 -1 -1 -1 -1 -1\n"},
		{"sls", "{\"job.start.ms\": \"" + long + "\", \"job.tasks\": []}\n"},
		{"alibaba2018", "M1,1,j,1,Terminated," + long + ",2,100,0.5\n"},
	} {
		_, _, err := importString(c.format, c.data, Options{})
		if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "bytes)") {
			t.Errorf("%s: error of %d bytes: %.300v", c.format, len(fmtErr(err)), err)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
