package formats

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"sojourn/traces"
)

// MaxSeconds bounds every time and duration an importer accepts (about
// 31.7 years): far beyond any workload, and far enough below the replay's
// microsecond clock (int64 µs overflows at about 9.2e12 s) that submit
// times plus many task durations never overflow it.
const MaxSeconds = 1e9

// MaxTasks bounds the tasks of one job (the trace stores counts as int32).
const MaxTasks = 1 << 24

// ErrMalformed marks an input an importer cannot read; every *Error wraps
// it.
var ErrMalformed = errors.New("malformed workload")

// Error locates a bad value: the file, its line (from 1; 0 when the file
// as a whole is wrong) and the field, with what was expected.
type Error struct {
	File  string
	Line  int
	Field string // column or key; empty when the whole line is wrong
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return ErrMalformed }

// Importer hands out the jobs of a workload in submit order.
type Importer interface {
	// Params are the trace parameters: import.format, import.source and
	// what the format adds (an SWF header's MaxProcs, …). Complete once
	// the importer is made.
	Params() map[string]string
	// Next reads the next job into j; it returns io.EOF after the last.
	Next(j *traces.Job) error
	// Notes are lines for the user once the import is done: what the
	// source's header said, what was skipped and why, with counts.
	Notes() []string
}

// Options are the choices every importer shares.
type Options struct {
	// Name is the input's name in errors and in import.source.
	Name string
	// MapMemory and ReduceMemory are the task memory footprints, in
	// bytes, of jobs whose source gives none.
	MapMemory, ReduceMemory int64
	// Seed drives the CSV importer's task skew (map_mean_s with skew).
	Seed uint64
	// SWFStatus says what becomes of SWF jobs whose status is failed (0)
	// or cancelled (5): "keep" (the default: they held their processors
	// for their run time) or "drop".
	SWFStatus string
	// Tasks is the CSV task table, with TasksName its name; nil when the
	// job table carries the durations.
	Tasks     io.Reader
	TasksName string
}

// Default task memory footprints, those of bench generate.
const (
	DefaultMapMemory    = 512 << 20
	DefaultReduceMemory = 1 << 30
)

func (o *Options) defaults() {
	if o.MapMemory == 0 {
		o.MapMemory = DefaultMapMemory
	}
	if o.ReduceMemory == 0 {
		o.ReduceMemory = DefaultReduceMemory
	}
	if o.SWFStatus == "" {
		o.SWFStatus = "keep"
	}
}

func (o *Options) params(format string) map[string]string {
	return map[string]string{
		"import.format": format,
		"import.source": o.Name,
	}
}

// fieldErr is a bad field of a line.
func fieldErr(file string, line int, field, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// parseSeconds reads a time or duration in seconds: finite, >= 0 and at
// most MaxSeconds.
func parseSeconds(s, what string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number; want %s in seconds", quote(s), what)
	}
	return checkSeconds(v, what)
}

func checkSeconds(v float64, what string) (float64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("%v; want a finite %s in seconds", v, what)
	case v < 0:
		return 0, fmt.Errorf("%v is negative; want %s >= 0 s", v, what)
	case v > MaxSeconds:
		return 0, fmt.Errorf("%v s is too large; want %s <= %g s (31.7 years)", v, what, float64(MaxSeconds))
	}
	return v, nil
}

// parseCount reads a task count: an integer in [min, MaxTasks].
func parseCount(s string, min int, what string) (int, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer; want %s", quote(s), what)
	}
	if v < int64(min) || v > MaxTasks {
		return 0, fmt.Errorf("%d; want %s from %d to %d", v, what, min, MaxTasks)
	}
	return int(v), nil
}

// parseBytes reads a byte count: an integer >= 0.
func parseBytes(s, what string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer; want %s in bytes >= 0", quote(s), what)
	}
	if v < 0 {
		return 0, fmt.Errorf("%d is negative; want %s in bytes >= 0", v, what)
	}
	return v, nil
}

// order checks that submit times never decrease.
type order struct{ prev float64 }

func (o *order) check(submit float64) error {
	if submit < o.prev {
		return fmt.Errorf("%v s is before the previous job's %v s; jobs must be in submit order (sort the file by submit time)", submit, o.prev)
	}
	o.prev = submit
	return nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
