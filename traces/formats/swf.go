package formats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"sojourn/traces"
)

// SWFFields names the 18 fields of a Standard Workload Format (v2.2) job
// line, from 1, and says what the importer makes of each.
var SWFFields = [...]CSVColumn{
	{"job_number", "-", "the job's id (-1: error)"},
	{"submit_time", "s", "submit time (-1: error); lines in submit order"},
	{"wait_time", "s", "not kept (a result of the original scheduler)"},
	{"run_time", "s", "every task's duration (-1: error, unless the job is dropped)"},
	{"allocated_processors", "tasks", "the job's map tasks (-1: requested_processors; both -1: error)"},
	{"average_cpu_time", "s", "not kept"},
	{"used_memory", "KB", "per processor: the tasks' memory when requested_memory is -1 (both -1: --map-memory)"},
	{"requested_processors", "-", "fallback for allocated_processors"},
	{"requested_time", "s", "the user's estimate: requested_time × tasks slot-s (-1: no estimate)"},
	{"requested_memory", "KB", "per processor: the tasks' memory (-1: used_memory)"},
	{"status", "-", "1 completed; 0 failed and 5 cancelled: kept or dropped by --swf.status; 2, 3, 4 (checkpointed parts): dropped, counted; -1: kept"},
	{"user_id", "-", "the pool, u<id> (-1: pool unknown)"},
	{"group_id", "-", "not kept"},
	{"executable_number", "-", "not kept"},
	{"queue_number", "-", "not kept"},
	{"partition_number", "-", "not kept"},
	{"preceding_job_number", "-", "not kept (no dependencies)"},
	{"think_time", "s", "not kept"},
}

// SWF imports a Standard Workload Format log: each job line becomes a
// map-only job of allocated_processors tasks of run_time seconds each,
// started independently (no gang start).
type SWF struct {
	opt     Options
	sc      *bufio.Scanner
	line    int
	peeked  string // first job line, read while looking for the header
	hasPeek bool
	order   order
	params  map[string]string
	header  []string // "MaxProcs: 128" lines, for the notes
	dropped map[string]int
}

// NewSWF reads the header comments (lines starting with ';') up to the
// first job line.
func NewSWF(r io.Reader, opt Options) (*SWF, error) {
	opt.defaults()
	if opt.SWFStatus != "keep" && opt.SWFStatus != "drop" {
		return nil, fmt.Errorf("swf status %q: want keep or drop", opt.SWFStatus)
	}
	s := &SWF{opt: opt, sc: bufio.NewScanner(newTextReader(r, opt.Name, false)), params: opt.params("swf"), dropped: map[string]int{}}
	s.sc.Buffer(make([]byte, 0, 64<<10), MaxLine+1)
	s.order.prev = math.Inf(-1)
	s.params["import.swf.status"] = opt.SWFStatus
	for s.sc.Scan() {
		s.line++
		text := strings.TrimSpace(s.sc.Text())
		if text == "" {
			continue
		}
		if c, ok := strings.CutPrefix(text, ";"); ok {
			key, val, ok := strings.Cut(c, ":")
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			switch {
			case !ok:
			case key == "MaxProcs":
				s.params["swf.max_procs"] = val
				s.header = append(s.header, "MaxProcs "+val)
			case key == "MaxNodes":
				s.params["swf.max_nodes"] = val
				s.header = append(s.header, "MaxNodes "+val)
			case key == "Version", key == "Computer", key == "UnixStartTime", key == "TimeZoneString":
				s.params["swf."+strings.ToLower(key)] = val
			}
			continue
		}
		s.peeked, s.hasPeek = text, true
		break
	}
	if err := s.sc.Err(); err != nil {
		return nil, s.scanErr(err)
	}
	if !s.hasPeek && s.line == 0 {
		return nil, &Error{File: opt.Name, Msg: "empty file; want SWF job lines of 18 fields"}
	}
	return s, nil
}

func (s *SWF) scanErr(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return &Error{File: s.opt.Name, Line: s.line + 1, Msg: "line longer than 1 MiB; want SWF lines of 18 fields"}
	}
	return fmt.Errorf("%s: after line %d: %w", s.opt.Name, s.line, err)
}

// Params implements Importer.
func (s *SWF) Params() map[string]string { return s.params }

// Notes implements Importer.
func (s *SWF) Notes() []string {
	var n []string
	if len(s.header) > 0 {
		n = append(n, "SWF header: "+strings.Join(s.header, ", "))
	} else {
		n = append(n, "SWF header: no MaxProcs or MaxNodes")
	}
	for _, why := range sortedKeys(s.dropped) {
		n = append(n, fmt.Sprintf("dropped %d jobs: %s", s.dropped[why], why))
	}
	return n
}

// Next implements Importer.
func (s *SWF) Next(j *traces.Job) error {
	for {
		var text string
		if s.hasPeek {
			text, s.hasPeek = s.peeked, false
		} else {
			if !s.sc.Scan() {
				if err := s.sc.Err(); err != nil {
					return s.scanErr(err)
				}
				return io.EOF
			}
			s.line++
			text = strings.TrimSpace(s.sc.Text())
			if text == "" || strings.HasPrefix(text, ";") {
				continue
			}
		}
		ok, err := s.job(text, j)
		if err != nil || ok {
			return err
		}
	}
}

// job parses one job line; false when the job is dropped.
func (s *SWF) job(text string, j *traces.Job) (bool, error) {
	f := strings.Fields(text)
	if len(f) != len(SWFFields) {
		return false, &Error{File: s.opt.Name, Line: s.line, Msg: fmt.Sprintf("%d fields; want the %d whitespace-separated fields of SWF v2.2", len(f), len(SWFFields))}
	}
	// Every field is read as a number; times (submit, wait, run, average
	// CPU, requested, think) may have decimals, which are kept, and every
	// other field must be an integer.
	var v [len(SWFFields)]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return false, s.err(i, "%s is not a number; want a number (-1: unknown)", quote(x))
		}
		if n != math.Trunc(n) && !swfTimeField[i] {
			return false, s.err(i, "%s; want an integer (-1: unknown)", quote(x))
		}
		if n < 0 && n != -1 {
			return false, s.err(i, "%s is negative; want a value >= 0, or -1 for unknown", x)
		}
		if n > 1e15 {
			return false, s.err(i, "%s is too large; want at most 1e15", x)
		}
		v[i] = n
	}
	if v[0] == -1 {
		return false, s.err(0, "-1 (unknown); every job needs its number")
	}
	if v[1] == -1 {
		return false, s.err(1, "-1 (unknown); every job needs its submit time")
	}
	submit, err := checkSeconds(v[1], "a submit time")
	if err != nil {
		return false, s.err(1, "%v", err)
	}
	if err := s.order.check(submit); err != nil {
		return false, s.err(1, "%v", err)
	}
	status := v[10]
	switch status {
	case 2, 3, 4:
		s.dropped[fmt.Sprintf("status %d (a part of a checkpointed job)", int(status))]++
		return false, nil
	case 0, 5:
		if s.opt.SWFStatus == "drop" {
			s.dropped[fmt.Sprintf("status %d (%s), --swf.status drop", int(status), swfStatus(status))]++
			return false, nil
		}
	case 1, -1:
	default:
		return false, s.err(10, "%v; want 0 failed, 1 completed, 2-4 checkpointed parts, 5 cancelled or -1 unknown", status)
	}
	procs := v[4]
	if procs == -1 {
		procs = v[7]
	}
	if status == 5 && (v[3] <= 0 || procs <= 0) {
		s.dropped["status 5 (cancelled) before it ran: run time or processors -1 or 0"]++
		return false, nil
	}
	if v[3] == -1 {
		return false, s.err(3, "-1 (unknown); want the job's run time in seconds (or --swf.status drop for a failed job)")
	}
	run, err := checkSeconds(v[3], "a run time")
	if err != nil {
		return false, s.err(3, "%v", err)
	}
	switch {
	case procs == -1:
		return false, s.err(4, "-1 (unknown) and requested_processors -1 too; want the job's processors")
	case procs == 0:
		return false, s.err(4, "0; want 1 or more processors")
	case procs > MaxTasks:
		return false, s.err(4, "%v; want at most %d processors", procs, MaxTasks)
	}
	*j = traces.Job{ID: int64(v[0]), Name: strconv.FormatInt(int64(v[0]), 10), Submit: submit, Pool: "unknown",
		Priority: traces.Normal, SourceLine: int64(s.line), Rigid: true,
		MapDurations: make([]float64, int(procs)), ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{},
		MapMemoryBytes: s.opt.MapMemory, ReduceMemoryBytes: s.opt.ReduceMemory}
	for i := range j.MapDurations {
		j.MapDurations[i] = run
	}
	if v[11] != -1 {
		j.Pool = "u" + strconv.FormatInt(int64(v[11]), 10)
	}
	memKB, memField := v[9], 9
	if memKB == -1 {
		memKB, memField = v[6], 6
	}
	if memKB != -1 {
		if memKB > math.MaxInt64/1024 {
			return false, s.err(memField, "%v KB overflows int64 bytes", memKB)
		}
		j.MapMemoryBytes = int64(memKB) * 1024
	}
	if v[8] != -1 {
		req, err := checkSeconds(v[8], "a requested time")
		if err != nil {
			return false, s.err(8, "%v", err)
		}
		j.Estimate, j.HasEstimate = req*float64(procs), true
	}
	return true, nil
}

func (s *SWF) err(field int, format string, args ...any) error {
	return fieldErr(s.opt.Name, s.line, fmt.Sprintf("%d (%s)", field+1, SWFFields[field].Name), format, args...)
}

// swfTimeField marks the fields, from 0, that are times in seconds and
// may have decimals.
var swfTimeField = [len(SWFFields)]bool{1: true, 2: true, 3: true, 5: true, 8: true, 17: true}

func swfStatus(s float64) string {
	if s == 0 {
		return "failed"
	}
	return "cancelled"
}
