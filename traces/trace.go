package traces

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// SchemaVersion is the version of the trace schema this package writes.
// It is stored in the schema metadata under KeySchemaVersion. Version 2
// added the nullable user_estimate_s, source_line, map_cores and
// reduce_cores columns, version 3 the rigid column; Read and Open still
// read version 1 and 2 files, whose jobs have no estimate (version 1) and
// are not rigid.
const SchemaVersion = "3"

// readableVersions are the schema versions Read and Open accept.
var readableVersions = []string{"1", "2", SchemaVersion}

// Metadata keys every trace carries.
const (
	KeyKind          = "sojourn.kind"           // always "trace"
	KeySchemaVersion = "sojourn.schema_version" // SchemaVersion
	KindTrace        = "trace"
)

// Priority is a Hadoop job priority, from VeryLow (-2) to VeryHigh (2).
type Priority int8

// Hadoop 1.x job priorities.
const (
	VeryLow  Priority = -2
	Low      Priority = -1
	Normal   Priority = 0
	High     Priority = 1
	VeryHigh Priority = 2
)

var priorityNames = [...]string{"VERY_LOW", "LOW", "NORMAL", "HIGH", "VERY_HIGH"}

func (p Priority) String() string {
	if p < VeryLow || p > VeryHigh {
		return fmt.Sprintf("Priority(%d)", int8(p))
	}
	return priorityNames[p+2]
}

// ParsePriority accepts a Hadoop priority name (VERY_LOW … VERY_HIGH, any case).
func ParsePriority(s string) (Priority, error) {
	for i, n := range priorityNames {
		if strings.EqualFold(s, n) {
			return Priority(i - 2), nil
		}
	}
	return 0, fmt.Errorf("unknown priority %q: want one of %s", s, strings.Join(priorityNames[:], ", "))
}

// Job is one MapReduce job of a workload.
type Job struct {
	ID       int64    // unique within the trace
	Name     string   // free text, e.g. the SWIM job name
	Submit   float64  // submit time, seconds from the start of the workload
	Pool     string   // user or pool the job is submitted to
	Priority Priority // Hadoop priority
	Class    string   // class label, e.g. "small", "medium", "big"

	MapInputBytes int64 // bytes read by all maps
	ShuffleBytes  int64 // bytes moved from maps to reduces
	OutputBytes   int64 // bytes written by reduces (or by maps of map-only jobs)

	// MapDurations holds one entry per map task: its run time in seconds on a
	// node of reference speed reading node-local data.
	MapDurations []float64
	// ReduceDurations holds one entry per reduce task: its run time in seconds
	// after its shuffle, on a node of reference speed. The shuffle itself is
	// modelled at replay time from ReduceShuffleBytes.
	ReduceDurations []float64
	// ReduceShuffleBytes holds the bytes each reduce task fetches.
	ReduceShuffleBytes []int64

	MapMemoryBytes    int64 // memory footprint of one map task
	ReduceMemoryBytes int64 // memory footprint of one reduce task

	// Estimate is the user's estimate of the job's work: the sum of its
	// task durations at reference speed, in slot-seconds (a job of k tasks
	// of l seconds each has work k·l), as a user or a workload log gave it
	// (SWF's requested time times its processors, for instance). It is
	// meaningful only when HasEstimate is set; a trace stores it in the
	// nullable column user_estimate_s, null when HasEstimate is false.
	Estimate    float64
	HasEstimate bool

	// SourceLine is the line of the imported file the job came from
	// (counted from 1; for a job spread over several lines, its first),
	// and 0 for a generated job: column source_line, null when 0. The
	// file itself is named by the trace's import.source parameter.
	SourceLine int64

	// MapCores and ReduceCores are the CPU cores one task asks for (its
	// container's size, as Alibaba's plan_cpu or SLS's container.vcores
	// give it), 0 when unknown: columns map_cores and reduce_cores, null
	// when 0. Recorded for the analyses; the slot model does not use them.
	MapCores, ReduceCores float64

	// Rigid marks a gang job: its maps must start together, as a parallel
	// job of an HPC log (SWF) asks for all its processors at once, and it
	// has no reduces. Column rigid; false in files before schema
	// version 3. Policies that honour it say so (bench policies); the
	// others schedule its maps one by one.
	Rigid bool
}

// Maps is the number of map tasks.
func (j *Job) Maps() int { return len(j.MapDurations) }

// Reduces is the number of reduce tasks.
func (j *Job) Reduces() int { return len(j.ReduceDurations) }

// Trace is a workload: jobs in submit order plus the parameters that made it.
type Trace struct {
	// Params records how the trace was made (generator, seed, profile,
	// source file, scale, …). Keys are stored in sorted order.
	Params map[string]string
	Jobs   []Job
}

// SortedParamKeys returns the keys of t.Params in sorted order.
func (t *Trace) SortedParamKeys() []string {
	keys := make([]string, 0, len(t.Params))
	for k := range t.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TotalTasks returns the number of map and reduce tasks of the trace.
func (t *Trace) TotalTasks() (maps, reduces int) {
	for i := range t.Jobs {
		maps += t.Jobs[i].Maps()
		reduces += t.Jobs[i].Reduces()
	}
	return
}

// Sentinel errors; every error returned by Read and Validate wraps one.
var (
	// ErrInvalid marks a value that breaks the schema's rules.
	ErrInvalid = errors.New("invalid trace")
	// ErrSchemaVersion marks a file written with an unknown schema version.
	ErrSchemaVersion = errors.New("unknown trace schema version")
	// ErrNotTrace marks a file that is not an Arrow IPC file or not a trace.
	ErrNotTrace = errors.New("not a sojourn trace")
)

// RowError locates a bad value: its row (from 0) and column.
type RowError struct {
	Row    int
	Column string
	Msg    string
}

func (e *RowError) Error() string {
	return fmt.Sprintf("row %d, column %s: %s", e.Row, e.Column, e.Msg)
}

func (e *RowError) Unwrap() error { return ErrInvalid }

func rowErr(row int, col, format string, args ...any) error {
	return &RowError{Row: row, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks every rule of the schema and returns the first violation
// as a *RowError, or nil.
func (t *Trace) Validate() error {
	var v validator
	for i := range t.Jobs {
		if err := v.check(i, &t.Jobs[i]); err != nil {
			return err
		}
	}
	return nil
}

// validator checks jobs one at a time, in row order: the rules of one row,
// and across rows that submit times never decrease and ids are unique.
// Ids that only grow, as generated traces have, are unique without being
// remembered; a set is kept once one does not.
type validator struct {
	rows   int
	prev   float64
	maxID  int64
	seen   map[int64]int // all ids and their rows, once one was out of order
	sorted []int64       // ids in row order while they grow
}

// MaxSeconds is the longest time the replay's clock, int64 microseconds,
// holds: about 292,000 years. Submit times and durations beyond it are
// refused rather than wrapped around.
const MaxSeconds = math.MaxInt64 / 1e6

func (v *validator) check(i int, j *Job) error {
	if v.rows == 0 {
		v.prev = math.Inf(-1)
	}
	v.rows++
	if j.ID < 0 {
		return rowErr(i, ColJobID, "negative id %d", j.ID)
	}
	if err := v.unique(i, j.ID); err != nil {
		return err
	}
	for _, c := range [...]struct{ col, v string }{{ColName, j.Name}, {ColPool, j.Pool}, {ColClass, j.Class}} {
		if at := invalidUTF8(c.v); at >= 0 {
			return rowErr(i, c.col, "byte %d (0x%02x) is not UTF-8; want UTF-8 text", at+1, c.v[at])
		}
	}
	if !finiteNonNeg(j.Submit) {
		return rowErr(i, ColSubmit, "%v; want a finite time >= 0", j.Submit)
	}
	if j.Submit > MaxSeconds {
		return rowErr(i, ColSubmit, "%v s is beyond the replay clock's %.4g s", j.Submit, MaxSeconds)
	}
	if j.Submit < v.prev {
		return rowErr(i, ColSubmit, "%v is before the previous row's %v; rows must be in submit order", j.Submit, v.prev)
	}
	v.prev = j.Submit
	if j.Priority < VeryLow || j.Priority > VeryHigh {
		return rowErr(i, ColPriority, "%d; want -2 (VERY_LOW) to 2 (VERY_HIGH)", j.Priority)
	}
	for _, c := range [...]struct {
		col string
		v   int64
	}{
		{ColMapInputBytes, j.MapInputBytes}, {ColShuffleBytes, j.ShuffleBytes}, {ColOutputBytes, j.OutputBytes},
		{ColMapMemory, j.MapMemoryBytes}, {ColReduceMemory, j.ReduceMemoryBytes},
	} {
		if c.v < 0 {
			return rowErr(i, c.col, "negative byte count %d", c.v)
		}
	}
	if j.HasEstimate && !finiteNonNeg(j.Estimate) {
		return rowErr(i, ColEstimate, "%v; want a finite estimate >= 0 slot-s (or null)", j.Estimate)
	}
	if !j.HasEstimate && j.Estimate != 0 {
		return rowErr(i, ColEstimate, "%v without HasEstimate; want 0 when the job has no estimate", j.Estimate)
	}
	if j.SourceLine < 0 {
		return rowErr(i, ColSourceLine, "%d; want a line number >= 1, or 0 (null) for none", j.SourceLine)
	}
	if !finiteNonNeg(j.MapCores) {
		return rowErr(i, ColMapCores, "%v; want a finite number of cores >= 0 (0: unknown)", j.MapCores)
	}
	if !finiteNonNeg(j.ReduceCores) {
		return rowErr(i, ColReduceCores, "%v; want a finite number of cores >= 0 (0: unknown)", j.ReduceCores)
	}
	if j.Maps() == 0 && j.Reduces() > 0 {
		return rowErr(i, ColMaps, "0 maps but %d reduces; a job with reduces needs maps", j.Reduces())
	}
	if j.Maps() == 0 {
		return rowErr(i, ColMaps, "0 maps; a job needs at least one task")
	}
	if j.Rigid && j.Reduces() > 0 {
		return rowErr(i, ColRigid, "true for a job of %d reduces; a rigid job is one gang of maps", j.Reduces())
	}
	for k, d := range j.MapDurations {
		if !finiteNonNeg(d) || d > MaxSeconds {
			return rowErr(i, ColMapDurations, "element %d is %v; want a finite duration >= 0 s and <= %.4g s", k, d, MaxSeconds)
		}
	}
	for k, d := range j.ReduceDurations {
		if !finiteNonNeg(d) || d > MaxSeconds {
			return rowErr(i, ColReduceDurations, "element %d is %v; want a finite duration >= 0 s and <= %.4g s", k, d, MaxSeconds)
		}
	}
	if len(j.ReduceShuffleBytes) != j.Reduces() {
		return rowErr(i, ColReduceShuffle, "%d entries for %d reduces", len(j.ReduceShuffleBytes), j.Reduces())
	}
	for k, b := range j.ReduceShuffleBytes {
		if b < 0 {
			return rowErr(i, ColReduceShuffle, "element %d is negative (%d)", k, b)
		}
	}
	return nil
}

// unique checks that id was not used by an earlier row.
func (v *validator) unique(i int, id int64) error {
	if v.seen == nil {
		if v.rows == 1 || id > v.maxID {
			v.maxID = id
			v.sorted = append(v.sorted, id)
			return nil
		}
		// Out of order: remember every id from now on.
		v.seen = make(map[int64]int, len(v.sorted))
		for r, x := range v.sorted {
			v.seen[x] = r
		}
		v.sorted = nil
	}
	if r, dup := v.seen[id]; dup {
		return rowErr(i, ColJobID, "id %d already used by row %d", id, r)
	}
	v.seen[id] = i
	return nil
}

func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 1) && !math.IsNaN(x) }

// invalidUTF8 is the offset of the first byte of s that is not UTF-8, or
// -1 when s is UTF-8 text.
func invalidUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				return i
			}
		}
	}
	return -1
}

// CheckParams refuses a parameter whose key or value is not UTF-8 text:
// Arrow's metadata and every reader of it want UTF-8.
func CheckParams(params map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if at := invalidUTF8(k); at >= 0 {
			return fmt.Errorf("%w: parameter %q: byte %d of the key is not UTF-8", ErrInvalid, k, at+1)
		}
		if at := invalidUTF8(params[k]); at >= 0 {
			return fmt.Errorf("%w: parameter %s: byte %d of the value is not UTF-8", ErrInvalid, k, at+1)
		}
	}
	return nil
}
