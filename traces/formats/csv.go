package formats

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"sojourn/traces"
)

// CSV job table columns (see CSVJobColumns for their meaning and units).
const (
	csvJobID          = "job_id"
	csvName           = "name"
	csvSubmit         = "submit_s"
	csvPool           = "pool"
	csvPriority       = "priority"
	csvClass          = "class"
	csvMaps           = "maps"
	csvReduces        = "reduces"
	csvMapDurations   = "map_durations_s"
	csvRedDurations   = "reduce_durations_s"
	csvMapMean        = "map_mean_s"
	csvRedMean        = "reduce_mean_s"
	csvSkew           = "skew"
	csvMapMemory      = "map_memory_bytes"
	csvRedMemory      = "reduce_memory_bytes"
	csvEstimate       = "estimate_s"
	csvMapCores       = "map_cores"
	csvRedCores       = "reduce_cores"
	csvInput          = "map_input_bytes"
	csvShuffle        = "shuffle_bytes"
	csvOutput         = "output_bytes"
	csvReduceShuffles = "reduce_shuffle_bytes"
	csvRigid          = "rigid"

	csvKind     = "kind"
	csvDuration = "duration_s"
	csvMemory   = "memory_bytes"
)

// CSVColumn documents a column of the CSV job or task table.
type CSVColumn struct{ Name, Unit, Doc string }

// CSVJobColumns is the job table: a header row naming columns (in any
// order), then one row per job in submit order.
var CSVJobColumns = []CSVColumn{
	{csvJobID, "-", "job id, an integer >= 0, unique (default: the row, from 0); required with --tasks"},
	{csvName, "-", "job name (default: the job id)"},
	{csvSubmit, "s", "submit time from the start of the workload (required); rows in submit order"},
	{csvPool, "-", "user or pool (default: default)"},
	{csvPriority, "-", "Hadoop priority, VERY_LOW … VERY_HIGH or -2 … 2 (default: NORMAL)"},
	{csvClass, "-", "class label (default: empty)"},
	{csvMaps, "tasks", "map tasks, >= 1 (required without --tasks)"},
	{csvReduces, "tasks", "reduce tasks, >= 0 (required without --tasks)"},
	{csvMapDurations, "s", "every map's duration, separated by spaces; or map_mean_s"},
	{csvRedDurations, "s", "every reduce's duration (after its shuffle), separated by spaces; or reduce_mean_s"},
	{csvMapMean, "s", "mean map duration, with skew"},
	{csvRedMean, "s", "mean reduce duration, with skew"},
	{csvSkew, "-", "σ of a log-normal, mean-preserving factor drawn per task from --seed and the job id (default 0: every task at the mean)"},
	{csvMapMemory, "bytes", "memory of one map task (default --map-memory)"},
	{csvRedMemory, "bytes", "memory of one reduce task (default --reduce-memory)"},
	{csvEstimate, "slot-s", "the user's estimate of the job's work, the sum of its task durations; empty for none"},
	{csvMapCores, "cores", "CPU cores of one map task (recorded, not used by the slot model; empty: unknown)"},
	{csvRedCores, "cores", "CPU cores of one reduce task (likewise)"},
	{csvInput, "bytes", "bytes the maps read (default 0: no input data, so the maps have no locality)"},
	{csvShuffle, "bytes", "bytes shuffled (default 0, or the sum of reduce_shuffle_bytes)"},
	{csvOutput, "bytes", "bytes written (default 0)"},
	{csvReduceShuffles, "bytes", "every reduce's shuffle bytes, separated by spaces (default: shuffle_bytes split evenly)"},
	{csvRigid, "-", "true for a rigid (gang) job whose maps start together, with no reduces (default false)"},
}

// csvTable reads a CSV file with a header, by column name.
type csvTable struct {
	name string
	r    *csv.Reader
	col  map[string]int
	rec  []string
	line int
	eof  bool
}

func newCSVTable(r io.Reader, name string, known []CSVColumn) (*csvTable, error) {
	t := &csvTable{name: name, r: csv.NewReader(newTextReader(r, name, true)), col: map[string]int{}}
	t.r.ReuseRecord = true
	header, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		return nil, &Error{File: name, Msg: "empty file; want a header row naming the columns, then one row per job (see bench import --help)"}
	}
	if err != nil {
		return nil, t.csvErr(err)
	}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if !slices.ContainsFunc(known, func(c CSVColumn) bool { return c.Name == h }) {
			names := make([]string, len(known))
			for k, c := range known {
				names[k] = c.Name
			}
			return nil, fieldErr(name, 1, quote(h), "unknown column in the header; want a header row of column names among %s", strings.Join(names, ", "))
		}
		if _, dup := t.col[h]; dup {
			return nil, fieldErr(name, 1, h, "named twice in the header")
		}
		t.col[h] = i
	}
	return t, nil
}

func (t *csvTable) csvErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = fmt.Sprintf("wrong number of fields; want %d, as in the header", len(t.col))
		}
		return &Error{File: t.name, Line: pe.Line, Msg: msg}
	}
	return fmt.Errorf("%s: %w", t.name, err)
}

// next reads a row; false at the end.
func (t *csvTable) next() (bool, error) {
	if t.eof {
		return false, nil
	}
	rec, err := t.r.Read()
	if errors.Is(err, io.EOF) {
		t.eof = true
		return false, nil
	}
	if err != nil {
		return false, t.csvErr(err)
	}
	t.rec = rec
	t.line, _ = t.r.FieldPos(0)
	return true, nil
}

func (t *csvTable) has(col string) bool { _, ok := t.col[col]; return ok }

// get is the field of col in the current row, and whether the column
// exists and the field is not empty.
func (t *csvTable) get(col string) (string, bool) {
	i, ok := t.col[col]
	if !ok {
		return "", false
	}
	v := strings.TrimSpace(t.rec[i])
	return v, v != ""
}

func (t *csvTable) err(col string, err error) error {
	return fieldErr(t.name, t.line, col, "%v", err)
}

// CSV imports a job table, with its durations or with a task table
// (opt.Tasks).
type CSV struct {
	opt    Options
	jobs   *csvTable
	tasks  *csvTable
	pend   bool // tasks holds a row not yet used
	row    int
	order  order
	params map[string]string
}

// NewCSV reads the header of the job table (and of the task table) and
// checks that the columns describe the durations one way only.
func NewCSV(r io.Reader, opt Options) (*CSV, error) {
	opt.defaults()
	jt, err := newCSVTable(r, opt.Name, CSVJobColumns)
	if err != nil {
		return nil, err
	}
	c := &CSV{opt: opt, jobs: jt, params: opt.params("csv")}
	c.order.prev = math.Inf(-1)
	if !jt.has(csvSubmit) {
		return nil, fieldErr(opt.Name, 1, csvSubmit, "missing from the header; want a submit time per job")
	}
	lists := jt.has(csvMapDurations) || jt.has(csvRedDurations)
	means := jt.has(csvMapMean) || jt.has(csvRedMean) || jt.has(csvSkew)
	if opt.Tasks != nil {
		if lists || means {
			return nil, &Error{File: opt.Name, Line: 1, Msg: "durations in the job table and a task table given; want one or the other"}
		}
		if !jt.has(csvJobID) {
			return nil, fieldErr(opt.Name, 1, csvJobID, "missing from the header; a task table names its jobs by job_id")
		}
		if c.tasks, err = newCSVTable(opt.Tasks, opt.TasksName, CSVTaskColumns); err != nil {
			return nil, err
		}
		for _, col := range []string{csvJobID, csvKind, csvDuration} {
			if !c.tasks.has(col) {
				return nil, fieldErr(opt.TasksName, 1, col, "missing from the header of the task table")
			}
		}
		c.params["import.tasks"] = opt.TasksName
		return c, nil
	}
	switch {
	case lists && means:
		return nil, &Error{File: opt.Name, Line: 1, Msg: "both per-task durations (map_durations_s) and means (map_mean_s) in the header; want one or the other"}
	case lists:
		if !jt.has(csvMapDurations) {
			return nil, fieldErr(opt.Name, 1, csvMapDurations, "missing from the header")
		}
	case means:
		if !jt.has(csvMapMean) {
			return nil, fieldErr(opt.Name, 1, csvMapMean, "missing from the header")
		}
		c.params["import.seed"] = strconv.FormatUint(opt.Seed, 10)
	default:
		return nil, &Error{File: opt.Name, Line: 1, Msg: "no durations: want map_durations_s (and reduce_durations_s), map_mean_s (and reduce_mean_s, skew) or a task table (--tasks)"}
	}
	for _, col := range []string{csvMaps, csvReduces} {
		if !jt.has(col) {
			return nil, fieldErr(opt.Name, 1, col, "missing from the header")
		}
	}
	return c, nil
}

// Params implements Importer.
func (c *CSV) Params() map[string]string { return c.params }

// Notes implements Importer.
func (c *CSV) Notes() []string { return nil }

// Next implements Importer.
func (c *CSV) Next(j *traces.Job) error {
	ok, err := c.jobs.next()
	if err != nil {
		return err
	}
	if !ok {
		if c.tasks != nil {
			if err := c.fillTasks(nil); err != nil {
				return err
			}
		}
		return io.EOF
	}
	t := c.jobs
	*j = traces.Job{ID: int64(c.row), Pool: "default", Priority: traces.Normal, SourceLine: int64(t.line),
		MapMemoryBytes: c.opt.MapMemory, ReduceMemoryBytes: c.opt.ReduceMemory}
	c.row++
	if v, ok := t.get(csvJobID); ok {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 0 {
			return t.err(csvJobID, fmt.Errorf("%s; want an integer id >= 0", quote(v)))
		}
		j.ID = id
	} else if t.has(csvJobID) {
		return t.err(csvJobID, errors.New("empty; want an integer id >= 0"))
	}
	j.Name = strconv.FormatInt(j.ID, 10)
	if v, ok := t.get(csvName); ok {
		j.Name = v
	}
	v, _ := t.get(csvSubmit)
	if j.Submit, err = parseSeconds(v, "a submit time"); err != nil {
		return t.err(csvSubmit, err)
	}
	if err := c.order.check(j.Submit); err != nil {
		return t.err(csvSubmit, err)
	}
	if v, ok := t.get(csvPool); ok {
		j.Pool = v
	}
	if v, ok := t.get(csvPriority); ok {
		if j.Priority, err = parsePriority(v); err != nil {
			return t.err(csvPriority, err)
		}
	}
	if v, ok := t.get(csvClass); ok {
		j.Class = v
	}
	for _, b := range []struct {
		col string
		dst *int64
	}{{csvMapMemory, &j.MapMemoryBytes}, {csvRedMemory, &j.ReduceMemoryBytes}, {csvInput, &j.MapInputBytes}, {csvShuffle, &j.ShuffleBytes}, {csvOutput, &j.OutputBytes}} {
		if v, ok := t.get(b.col); ok {
			if *b.dst, err = parseBytes(v, b.col); err != nil {
				return t.err(b.col, err)
			}
		}
	}
	for _, c := range []struct {
		col string
		dst *float64
	}{{csvMapCores, &j.MapCores}, {csvRedCores, &j.ReduceCores}} {
		if v, ok := t.get(c.col); ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0 && x <= 1e9) {
				return t.err(c.col, fmt.Errorf("%s; want a number of cores from 0 to 1e9", quote(v)))
			}
			*c.dst = x
		}
	}
	if v, ok := t.get(csvRigid); ok {
		switch v {
		case "true", "1":
			j.Rigid = true
		case "false", "0":
		default:
			return t.err(csvRigid, fmt.Errorf("%s; want true or false", quote(v)))
		}
	}
	if v, ok := t.get(csvEstimate); ok {
		if j.Estimate, err = parseSeconds(v, "an estimate of the job's work"); err != nil {
			return t.err(csvEstimate, err)
		}
		j.HasEstimate = true
	}
	if c.tasks != nil {
		if err := c.fillTasks(j); err != nil {
			return err
		}
	} else if err := c.durations(j); err != nil {
		return err
	}
	return c.shuffles(j)
}

// durations fills j's tasks from the job table.
func (c *CSV) durations(j *traces.Job) error {
	t := c.jobs
	counts := [2]int{}
	for k, col := range []string{csvMaps, csvReduces} {
		v, _ := t.get(col)
		n, err := parseCount(v, 1-k, "a number of tasks")
		if err != nil {
			return t.err(col, err)
		}
		counts[k] = n
	}
	if t.has(csvMapDurations) {
		for k, col := range []string{csvMapDurations, csvRedDurations} {
			v, _ := t.get(col)
			ds, err := parseList(v, counts[k])
			if err != nil {
				return t.err(col, err)
			}
			if k == 0 {
				j.MapDurations = ds
			} else {
				j.ReduceDurations = ds
			}
		}
		return nil
	}
	skew := 0.0
	if v, ok := t.get(csvSkew); ok {
		s, err := strconv.ParseFloat(v, 64)
		if err != nil || !(s >= 0 && s <= 10) {
			return t.err(csvSkew, fmt.Errorf("%s; want σ from 0 to 10", quote(v)))
		}
		skew = s
	}
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(j.ID)))
	for k, col := range []string{csvMapMean, csvRedMean} {
		if counts[k] == 0 {
			if k == 0 {
				j.MapDurations = []float64{}
			} else {
				j.ReduceDurations = []float64{}
			}
			continue
		}
		v, ok := t.get(col)
		if !ok {
			return t.err(col, fmt.Errorf("empty for %d tasks; want a mean duration in seconds", counts[k]))
		}
		mean, err := parseSeconds(v, "a mean duration")
		if err != nil {
			return t.err(col, err)
		}
		ds := make([]float64, counts[k])
		for i := range ds {
			ds[i] = mean
			if skew > 0 {
				ds[i] = min(mean*math.Exp(skew*rng.NormFloat64()-skew*skew/2), MaxSeconds)
			}
		}
		if k == 0 {
			j.MapDurations = ds
		} else {
			j.ReduceDurations = ds
		}
	}
	return nil
}

// shuffles fills j's per-reduce shuffle bytes.
func (c *CSV) shuffles(j *traces.Job) error {
	t := c.jobs
	if j.ReduceShuffleBytes != nil { // from the task table
		return nil
	}
	if v, ok := t.get(csvReduceShuffles); ok || (t.has(csvReduceShuffles) && j.Reduces() == 0) {
		f := strings.Fields(v)
		if len(f) != j.Reduces() {
			return t.err(csvReduceShuffles, fmt.Errorf("%d values for %d reduces; want one per reduce", len(f), j.Reduces()))
		}
		j.ReduceShuffleBytes = make([]int64, len(f))
		var sum int64
		for i, s := range f {
			b, err := parseBytes(s, "shuffle bytes")
			if err != nil {
				return t.err(csvReduceShuffles, fmt.Errorf("value %d: %v", i+1, err))
			}
			j.ReduceShuffleBytes[i] = b
			if sum += b; sum < 0 {
				return t.err(csvReduceShuffles, errors.New("the sum overflows int64"))
			}
		}
		if _, ok := t.get(csvShuffle); !ok {
			j.ShuffleBytes = sum
		}
		return nil
	}
	j.ReduceShuffleBytes = splitEvenly(j.ShuffleBytes, j.Reduces())
	return nil
}

// splitEvenly splits total bytes over n reduces, the remainder going to
// the first ones.
func splitEvenly(total int64, n int) []int64 {
	out := make([]int64, n)
	if n == 0 {
		return out
	}
	q, r := total/int64(n), total%int64(n)
	for i := range out {
		out[i] = q
		if int64(i) < r {
			out[i]++
		}
	}
	return out
}

// parseList reads n durations separated by spaces.
func parseList(v string, n int) ([]float64, error) {
	f := strings.Fields(v)
	if len(f) != n {
		return nil, fmt.Errorf("%d values for %d tasks; want one duration per task, separated by spaces", len(f), n)
	}
	out := make([]float64, n)
	for i, s := range f {
		d, err := parseSeconds(s, "a task duration")
		if err != nil {
			return nil, fmt.Errorf("value %d: %v", i+1, err)
		}
		out[i] = d
	}
	return out, nil
}

// parsePriority reads a Hadoop priority name or its number, -2 to 2.
func parsePriority(v string) (traces.Priority, error) {
	if n, err := strconv.Atoi(v); err == nil {
		if n < -2 || n > 2 {
			return 0, fmt.Errorf("%d; want -2 (VERY_LOW) to 2 (VERY_HIGH)", n)
		}
		return traces.Priority(n), nil
	}
	return traces.ParsePriority(v)
}
