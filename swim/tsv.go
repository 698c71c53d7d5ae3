package swim

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sojourn/traces"
)

// ErrMalformed marks a SWIM workload file that cannot be read: every
// *ParseError wraps it, so errors.Is(err, ErrMalformed) finds them.
var ErrMalformed = errors.New("malformed SWIM workload")

// Record is one row of a SWIM workload file: one job, sizes as measured on
// the original cluster.
type Record struct {
	ID           string  // column 1, e.g. "job17"
	Submit       float64 // column 2: submit time, s from the start of the workload
	Gap          float64 // column 3: s since the previous job's submit
	InputBytes   int64   // column 4: map input bytes
	ShuffleBytes int64   // column 5: shuffle bytes; 0 marks a job without reduces
	OutputBytes  int64   // column 6: reduce (or map-only) output bytes
	InputPath    string  // column 7, optional
	OutputPath   string  // column 8, optional
}

// Source is a parsed SWIM workload file.
type Source struct {
	Name    string // the file's base name, as recorded in trace metadata
	SHA256  string // hex digest of the file's bytes
	Records []Record
}

// Column numbers (1-based) and names of a SWIM workload row.
var tsvColumns = [...]string{
	1: "job_id",
	2: "submit_s",
	3: "gap_s",
	4: "map_input_bytes",
	5: "shuffle_bytes",
	6: "reduce_output_bytes",
	7: "input_path",
	8: "output_path",
}

// ParseError locates a bad value in a SWIM workload file. Line and Column
// count from 1; Column is 0 when the whole line is wrong.
type ParseError struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *ParseError) Error() string {
	if e.Column == 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	name := "extra"
	if e.Column < len(tsvColumns) {
		name = tsvColumns[e.Column]
	}
	return fmt.Sprintf("%s:%d: column %d (%s): %s", e.File, e.Line, e.Column, name, e.Msg)
}

func (e *ParseError) Unwrap() error { return ErrMalformed }

// ReadTSV reads a SWIM workload file. See ParseTSV for the format.
func ReadTSV(path string) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, want a SWIM workload file", path)
	}
	return ParseTSV(f, path)
}

// ParseTSV parses a SWIM workload: tab-separated, no header, one job per
// line with the columns job id, submit time (s), gap (s), map input bytes,
// shuffle bytes, reduce output bytes and, optionally, input path and output
// path. Empty trailing fields (a trailing TAB) are ignored, and so are blank
// lines. Times must be finite, non-negative and, for the submit column,
// non-decreasing; byte counts must be non-negative integers. The first bad
// value stops the parse with a *ParseError naming name, the line and the
// column.
func ParseTSV(r io.Reader, name string) (*Source, error) {
	h := sha256.New()
	sc := bufio.NewScanner(io.TeeReader(r, h))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	src := &Source{Name: filepath.Base(name)}
	prev := math.Inf(-1)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		rec, err := parseRow(text, prev)
		if err != nil {
			err.File, err.Line = name, line
			return nil, err
		}
		prev = rec.Submit
		src.Records = append(src.Records, rec)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: line + 1, Msg: "line longer than 16 MiB"}
		}
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if len(src.Records) == 0 {
		return nil, fmt.Errorf("%s: no jobs (%w); want rows of job id, submit, gap, input, shuffle and output bytes", name, ErrMalformed)
	}
	src.SHA256 = hex.EncodeToString(h.Sum(nil))
	return src, nil
}

func parseRow(text string, prevSubmit float64) (Record, *ParseError) {
	f := strings.Split(text, "\t")
	for len(f) > 0 && f[len(f)-1] == "" {
		f = f[:len(f)-1]
	}
	if len(f) < 6 {
		return Record{}, &ParseError{Msg: fmt.Sprintf("%d columns; want at least 6 (job id, submit, gap, input, shuffle and output bytes)", len(f))}
	}
	if len(f) > 8 {
		return Record{}, &ParseError{Column: 9, Msg: fmt.Sprintf("unexpected value %q; a SWIM row has at most 8 columns", f[8])}
	}
	var rec Record
	var err *ParseError
	if rec.ID = f[0]; rec.ID == "" {
		return rec, &ParseError{Column: 1, Msg: "empty job id"}
	}
	if rec.Submit, err = parseSeconds(f[1], 2); err != nil {
		return rec, err
	}
	if rec.Submit < prevSubmit {
		return rec, &ParseError{Column: 2, Msg: fmt.Sprintf("%v s is before the previous job's %v s; rows must be in submit order", rec.Submit, prevSubmit)}
	}
	if rec.Gap, err = parseSeconds(f[2], 3); err != nil {
		return rec, err
	}
	for i, dst := range []*int64{&rec.InputBytes, &rec.ShuffleBytes, &rec.OutputBytes} {
		v, perr := strconv.ParseInt(f[3+i], 10, 64)
		if perr != nil || v < 0 {
			return rec, &ParseError{Column: 4 + i, Msg: fmt.Sprintf("%q is not a non-negative integer byte count", f[3+i])}
		}
		*dst = v
	}
	if len(f) > 6 {
		rec.InputPath = f[6]
	}
	if len(f) > 7 {
		rec.OutputPath = f[7]
	}
	return rec, nil
}

func parseSeconds(s string, col int) (float64, *ParseError) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !finiteNonNeg(v) {
		return 0, &ParseError{Column: col, Msg: fmt.Sprintf("%q is not a finite number of seconds >= 0", s)}
	}
	if v > traces.MaxSeconds {
		return 0, &ParseError{Column: col, Msg: fmt.Sprintf("%s s is beyond the replay clock's %.4g s (int64 microseconds)", s, traces.MaxSeconds)}
	}
	return v, nil
}

func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) && !math.IsNaN(x) }

// Original cluster sizes of the Facebook traces, from the SWIM wiki.
const (
	FB2009Nodes = 600  // FB-2009: 600 machines
	FB2010Nodes = 3000 // FB-2010: 3000 machines
)

// OriginalNodesFor guesses the size of the cluster a SWIM workload file was
// recorded on from its name: 600 for a name containing "2009" (FB-2009),
// 3000 for "2010" (FB-2010). It reports false when the name has neither or
// both.
func OriginalNodesFor(path string) (int, bool) {
	base := filepath.Base(path)
	has09, has10 := strings.Contains(base, "2009"), strings.Contains(base, "2010")
	switch {
	case has09 && !has10:
		return FB2009Nodes, true
	case has10 && !has09:
		return FB2010Nodes, true
	}
	return 0, false
}
