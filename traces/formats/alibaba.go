package formats

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"sojourn/traces"
)

// AlibabaColumns are the columns of cluster-trace-v2018's batch_task.csv
// (no header), from 1.
var AlibabaColumns = [...]CSVColumn{
	{"task_name", "-", "the stage and its DAG: M1, R2_1 (stage 2 after stage 1), J3_1_2; the letter does not matter"},
	{"instance_num", "tasks", "the stage's instances: its tasks"},
	{"job_name", "-", "the job's name"},
	{"task_type", "-", "not kept"},
	{"status", "-", "Terminated stages are imported; a job with another status is skipped and counted"},
	{"start_time", "s", "the stage's start; the job's submit time is its first stage's"},
	{"end_time", "s", "the stage's end: every instance lasts end_time − start_time"},
	{"plan_cpu", "1/100 core", "the stage's task cores, plan_cpu/100 (map_cores, reduce_cores: recorded, not used by the slot model)"},
	{"plan_mem", "% of a machine", "the stage's task memory: plan_mem/100 × --alibaba.machine-memory"},
}

// Alibaba imports batch_task.csv. A job's rows may be anywhere in the
// file, so the importer holds one small record per row (not per
// instance) and writes the jobs, sorted by submit time, once the file is
// read. Jobs whose DAG is one stage (a map-only job) or one stage feeding
// another (maps, then reduces) are imported; other shapes are counted by
// shape and skipped.
type Alibaba struct {
	opt     Options
	machine int64
	status  map[string]string // interned statuses
	jobs    []*aliJob
	next    int
	params  map[string]string
	skipped map[string]int
}

// aliStage is one row, kept small: the table is held whole.
type aliStage struct {
	deps       []int32
	status     string // interned
	id         int32
	instances  int32
	start, end int32   // s, at most MaxSeconds
	mem        float64 // plan_mem, -1 when empty
	cpu        float64 // plan_cpu, 0 when empty
	dag        bool    // the name encodes the DAG
}

type aliJob struct {
	name   string
	line   int
	stages []aliStage
	submit float64
	maps   int // index of the map stage
	red    int // index of the reduce stage, -1 for none
}

// DefaultMachineMemory is the memory of one machine of the Alibaba
// cluster that plan_mem is a percentage of, by default.
const DefaultMachineMemory = 96 << 30

// NewAlibaba reads the whole table; machineMemory is the memory in bytes
// that plan_mem (0-100) is a percentage of (0: DefaultMachineMemory).
func NewAlibaba(r io.Reader, opt Options, machineMemory int64) (*Alibaba, error) {
	opt.defaults()
	if machineMemory <= 0 {
		machineMemory = DefaultMachineMemory
	}
	a := &Alibaba{opt: opt, machine: machineMemory, params: opt.params("alibaba2018"), skipped: map[string]int{}, status: map[string]string{}}
	a.params["import.alibaba.machine_memory"] = strconv.FormatInt(machineMemory, 10)
	cr := csv.NewReader(newTextReader(r, opt.Name, true))
	cr.FieldsPerRecord = len(AlibabaColumns)
	cr.ReuseRecord = true
	byName := map[string]*aliJob{}
	rows := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, e
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				msg := pe.Err.Error()
				if errors.Is(pe.Err, csv.ErrFieldCount) {
					msg = fmt.Sprintf("wrong number of fields; want the %d columns of batch_task.csv (no header)", len(AlibabaColumns))
				}
				return nil, &Error{File: opt.Name, Line: pe.Line, Msg: msg}
			}
			return nil, fmt.Errorf("%s: %w", opt.Name, err)
		}
		rows++
		line, _ := cr.FieldPos(0)
		st, err := a.stage(rec, line)
		if err != nil {
			return nil, err
		}
		name := rec[2]
		j := byName[name]
		if j == nil {
			j = &aliJob{name: strings.Clone(name), line: line}
			byName[j.name] = j
			a.jobs = append(a.jobs, j)
		}
		j.stages = append(j.stages, st)
	}
	if rows == 0 {
		return nil, &Error{File: opt.Name, Msg: "empty file; want batch_task.csv rows of 9 columns (no header)"}
	}
	kept := a.jobs[:0]
	for _, j := range a.jobs {
		if why := j.shape(); why != "" {
			a.skipped[why]++
			continue
		}
		kept = append(kept, j)
	}
	a.jobs = kept
	slices.SortStableFunc(a.jobs, func(x, y *aliJob) int {
		return cmp.Or(cmp.Compare(x.submit, y.submit), cmp.Compare(x.line, y.line))
	})
	a.params["import.alibaba.jobs_read"] = strconv.Itoa(len(byName))
	a.params["import.alibaba.jobs_skipped"] = strconv.Itoa(len(byName) - len(a.jobs))
	return a, nil
}

func (a *Alibaba) err(line, col int, format string, args ...any) error {
	return fieldErr(a.opt.Name, line, fmt.Sprintf("%d (%s)", col+1, AlibabaColumns[col].Name), format, args...)
}

func (a *Alibaba) stage(rec []string, line int) (aliStage, error) {
	var st aliStage
	name := strings.TrimSpace(rec[0])
	if name == "" {
		return st, a.err(line, 0, "empty; want a task name")
	}
	if rec[2] == "" {
		return st, a.err(line, 2, "empty; want a job name")
	}
	st.id, st.deps, st.dag = parseTaskName(name)
	n, err := parseCount(rec[1], 0, "a number of instances")
	if err != nil {
		return st, a.err(line, 1, "%v", err)
	}
	st.instances = int32(n)
	status := strings.TrimSpace(rec[4])
	if st.status = a.status[status]; st.status == "" && status != "" {
		st.status = strings.Clone(status)
		a.status[st.status] = st.status
	}
	for k, dst := range []*int32{&st.start, &st.end} {
		v, err := strconv.ParseInt(strings.TrimSpace(rec[5+k]), 10, 64)
		if err != nil {
			return st, a.err(line, 5+k, "%s is not an integer; want a time in seconds", quote(rec[5+k]))
		}
		if v < 0 {
			return st, a.err(line, 5+k, "%d is negative; want a time >= 0 s", v)
		}
		if v > MaxSeconds {
			return st, a.err(line, 5+k, "%d s is too large; want <= %g s (31.7 years)", v, float64(MaxSeconds))
		}
		*dst = int32(v)
	}
	if st.status == "Terminated" && st.end < st.start {
		return st, a.err(line, 6, "%d s is before start_time %d s in a Terminated task; want end >= start", st.end, st.start)
	}
	if v := strings.TrimSpace(rec[8]); v != "" {
		m, err := strconv.ParseFloat(v, 64)
		if err != nil || !(m >= 0 && m <= 100) {
			return st, a.err(line, 8, "%s; want a share of a machine's memory from 0 to 100", quote(rec[8]))
		}
		st.mem = m
	} else {
		st.mem = -1
	}
	if v := strings.TrimSpace(rec[7]); v != "" {
		c, err := strconv.ParseFloat(v, 64)
		if err != nil || !(c >= 0) || c > 1e9 {
			return st, a.err(line, 7, "%s; want cores × 100, from 0 to 1e9", quote(rec[7]))
		}
		st.cpu = c
	}
	return st, nil
}

// parseTaskName reads M3_1_2 as stage 3 after stages 1 and 2; a name
// without that form (task_Nzg3…) has no DAG.
func parseTaskName(name string) (id int32, deps []int32, dag bool) {
	i := 0
	for i < len(name) && (name[i] < '0' || name[i] > '9') {
		i++
	}
	if i == 0 || i > 2 || i == len(name) {
		return 0, nil, false
	}
	parts := strings.Split(name[i:], "_")
	for k, p := range parts {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil || n < 0 {
			return 0, nil, false
		}
		if k == 0 {
			id = int32(n)
		} else {
			deps = append(deps, int32(n))
		}
	}
	return id, deps, true
}

// shape says why job j is skipped, or "" when it is a map-only or a
// map-reduce job, and then sets its map and reduce stages and submit time.
func (j *aliJob) shape() string {
	for _, s := range j.stages {
		if s.status != "Terminated" {
			return fmt.Sprintf("a stage with status %s (only Terminated jobs are imported)", quote(s.status))
		}
	}
	n := len(j.stages)
	for _, s := range j.stages {
		if !s.dag && n > 1 {
			return fmt.Sprintf("%d stages without DAG names (task_…)", n)
		}
	}
	switch n {
	case 1:
		if len(j.stages[0].deps) > 0 {
			return "1 stage depending on a stage not in the file"
		}
		j.maps, j.red = 0, -1
	case 2:
		a, b := 0, 1
		if len(j.stages[a].deps) > 0 {
			a, b = b, a
		}
		sa, sb := j.stages[a], j.stages[b]
		switch {
		case len(sa.deps) == 0 && len(sb.deps) == 0:
			return "2 independent stages"
		case len(sa.deps) != 0 || len(sb.deps) != 1 || sb.deps[0] != sa.id:
			return "2 stages with dependencies outside the job"
		}
		j.maps, j.red = a, b
	default:
		edges := 0
		for _, s := range j.stages {
			edges += len(s.deps)
		}
		chain := edges == n-1
		for _, s := range j.stages {
			chain = chain && len(s.deps) <= 1
		}
		if chain {
			return fmt.Sprintf("%d stages, tree or chain (%d dependencies)", n, edges)
		}
		return fmt.Sprintf("%d stages, DAG of %d dependencies", n, edges)
	}
	if j.stages[j.maps].instances == 0 {
		return "no instance in its first stage"
	}
	j.submit = float64(j.stages[j.maps].start)
	return ""
}

// Params implements Importer.
func (a *Alibaba) Params() map[string]string { return a.params }

// Notes implements Importer.
func (a *Alibaba) Notes() []string {
	var n []string
	total := 0
	for _, why := range sortedKeys(a.skipped) {
		total += a.skipped[why]
	}
	if total > 0 {
		n = append(n, fmt.Sprintf("skipped %d jobs whose DAG is not one or two stages (by shape):", total))
		for _, why := range sortedKeys(a.skipped) {
			n = append(n, fmt.Sprintf("  %8d  %s", a.skipped[why], why))
		}
	}
	return n
}

// Next implements Importer.
func (a *Alibaba) Next(j *traces.Job) error {
	if a.next == len(a.jobs) {
		return io.EOF
	}
	aj := a.jobs[a.next]
	a.jobs[a.next] = nil
	a.next++
	*j = traces.Job{ID: int64(a.next - 1), Name: aj.name, Submit: aj.submit, Pool: "default", Priority: traces.Normal,
		SourceLine: int64(aj.line), ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{},
		MapMemoryBytes: a.opt.MapMemory, ReduceMemoryBytes: a.opt.ReduceMemory}
	ms := aj.stages[aj.maps]
	j.MapDurations = repeat(float64(ms.end-ms.start), int(ms.instances))
	j.MapCores = ms.cpu / 100
	if ms.mem >= 0 {
		j.MapMemoryBytes = int64(ms.mem / 100 * float64(a.machine))
	}
	if aj.red >= 0 {
		rs := aj.stages[aj.red]
		j.ReduceDurations = repeat(float64(rs.end-rs.start), int(rs.instances))
		j.ReduceCores = rs.cpu / 100
		j.ReduceShuffleBytes = make([]int64, rs.instances)
		if rs.mem >= 0 {
			j.ReduceMemoryBytes = int64(rs.mem / 100 * float64(a.machine))
		}
	}
	return nil
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
