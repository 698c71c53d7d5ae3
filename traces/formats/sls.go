package formats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"sojourn/internal/jsondup"
	"sojourn/traces"
)

// SLS keys, as the YARN Scheduler Load Simulator reads them
// (hadoop-tools/hadoop-sls: SLSConfiguration, AMDefinitionSLS,
// TaskContainerDefinition).
const (
	slsAMType      = "am.type"
	slsJobStart    = "job.start.ms"
	slsJobEnd      = "job.end.ms"
	slsQueue       = "job.queue.name"
	slsJobID       = "job.id"
	slsUser        = "job.user"
	slsJobCount    = "job.count"
	slsTasks       = "job.tasks"
	slsHost        = "container.host"
	slsStart       = "container.start.ms"
	slsEnd         = "container.end.ms"
	slsDuration    = "container.duration.ms"
	slsDurationOld = "duration.ms"
	slsPriority    = "container.priority"
	slsType        = "container.type"
	slsCount       = "count"
	slsMemory      = "container.memory-mb"
	slsVcores      = "container.vcores"
)

// SLSKeys documents what the importer makes of each SLS key.
var SLSKeys = []CSVColumn{
	{slsAMType, "-", "mapreduce (or absent); jobs of another type are skipped and counted"},
	{slsJobStart, "ms", "the submit time (required)"},
	{slsJobEnd, "ms", "not kept (a result)"},
	{slsQueue, "-", "the pool (default: default)"},
	{slsJobID, "-", "the job's name (default: its position, from 0)"},
	{slsUser, "-", "not kept (the pool is the queue)"},
	{slsJobCount, "-", "1 or absent; repeated jobs are refused"},
	{slsTasks, "-", "the containers (required, at least one map)"},
	{slsType, "-", "map (the default) or reduce"},
	{slsDuration, "ms", "the task's duration; else duration.ms; else container.end.ms − container.start.ms"},
	{slsStart + ", " + slsEnd, "ms", "the task's duration as end − start when no duration is given"},
	{slsCount, "-", "the container repeated count times (default 1)"},
	{slsMemory, "MiB", "task memory, the largest of a job's tasks of that kind (default --map-memory/--reduce-memory)"},
	{slsVcores, "cores", "task cores, the largest of a job's tasks of that kind (map_cores, reduce_cores: recorded, not used by the slot model)"},
	{slsHost + ", " + slsPriority, "-", "not kept: the job has no input bytes, so its maps have no locality"},
}

// SLS imports a stream of SLS job objects.
type SLS struct {
	opt     Options
	br      *bufio.Reader
	line    int // current line of the reader (from 1)
	row     int
	order   order
	params  map[string]string
	skipped map[string]int
	buf     []byte
	tasks   []int // lines of the task objects of the current job
}

// maxSLSObject bounds one job object, so that a file that is not JSON
// does not fill memory.
const maxSLSObject = 256 << 20

// NewSLS starts reading SLS job objects.
func NewSLS(r io.Reader, opt Options) (*SLS, error) {
	opt.defaults()
	s := &SLS{opt: opt, br: bufio.NewReaderSize(newTextReader(r, opt.Name, false), 64<<10), line: 1, params: opt.params("sls"), skipped: map[string]int{}}
	s.order.prev = math.Inf(-1)
	return s, nil
}

// Params implements Importer.
func (s *SLS) Params() map[string]string { return s.params }

// Notes implements Importer.
func (s *SLS) Notes() []string {
	var n []string
	for _, why := range sortedKeys(s.skipped) {
		n = append(n, fmt.Sprintf("skipped %d jobs: %s", s.skipped[why], why))
	}
	return n
}

// object reads the next top-level JSON value's bytes and its first line,
// recording the lines of the objects two levels down (the tasks).
func (s *SLS) object() ([]byte, int, error) {
	s.buf, s.tasks = s.buf[:0], s.tasks[:0]
	depth, inStr, esc, start := 0, false, false, 0
	// The last string at depth 1 (a key of the job) and whether the
	// array open at depth 2 is job.tasks, whose objects are the tasks.
	keyStart, key, inTasks := 0, "", false
	for {
		c, err := s.br.ReadByte()
		if errors.Is(err, io.EOF) {
			if depth == 0 && len(s.buf) == 0 {
				if s.row == 0 && start == 0 {
					return nil, 0, &Error{File: s.opt.Name, Msg: "empty file; want SLS job objects ({\"job.start.ms\": …, \"job.tasks\": […]} …)"}
				}
				return nil, 0, io.EOF
			}
			return nil, 0, &Error{File: s.opt.Name, Line: start, Msg: "the file ends inside a JSON object"}
		}
		var e *Error
		if errors.As(err, &e) {
			return nil, 0, e
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: line %d: %w", s.opt.Name, s.line, err)
		}
		if depth == 0 && len(s.buf) == 0 {
			switch c {
			case ' ', '\t', '\r':
				continue
			case '\n':
				s.line++
				continue
			case '{':
				start = s.line
			default:
				return nil, 0, &Error{File: s.opt.Name, Line: s.line, Msg: fmt.Sprintf("%q; want a JSON object per job, starting with {", c)}
			}
		}
		s.buf = append(s.buf, c)
		if len(s.buf) > maxSLSObject {
			return nil, 0, &Error{File: s.opt.Name, Line: start, Msg: "a job object longer than 256 MiB"}
		}
		switch {
		case c == '\n':
			s.line++
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
			if depth == 1 && inStr {
				keyStart = len(s.buf)
			} else if depth == 1 {
				key = string(s.buf[keyStart : len(s.buf)-1])
			}
		case inStr:
		case c == '{' || c == '[':
			depth++
			if c == '[' && depth == 2 {
				inTasks = key == slsTasks
			}
			if c == '{' && depth == 3 && inTasks {
				s.tasks = append(s.tasks, s.line)
			}
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return s.buf, start, nil
			}
		}
	}
}

// Next implements Importer.
func (s *SLS) Next(j *traces.Job) error {
	for {
		obj, line, err := s.object()
		if err != nil {
			return err
		}
		ok, err := s.job(obj, line, j)
		if err != nil || ok {
			return err
		}
	}
}

// lineOf finds the line of key in obj, which starts at line; from is the
// line to search from (a task's).
func lineOf(obj []byte, line, from int, key string) int {
	l, i := line, 0
	for l < from && i < len(obj) {
		if obj[i] == '\n' {
			l++
		}
		i++
	}
	k := bytes.Index(obj[i:], []byte(strconv.Quote(key)))
	if k < 0 {
		return from
	}
	return l + bytes.Count(obj[i:i+k], []byte("\n"))
}

func (s *SLS) job(obj []byte, line int, j *traces.Job) (bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			l := line + bytes.Count(obj[:min(int(se.Offset), len(obj))], []byte("\n"))
			return false, &Error{File: s.opt.Name, Line: l, Msg: "not JSON: " + se.Error()}
		}
		return false, &Error{File: s.opt.Name, Line: line, Msg: "not a JSON object: " + err.Error()}
	}
	if k, l, col := jsondup.Find(obj); k != "" {
		return false, fieldErr(s.opt.Name, line+l-1, quote(k), "column %d: given twice in one object; want each key once", col)
	}
	ferr := func(key string, from int, format string, args ...any) error {
		return fieldErr(s.opt.Name, lineOf(obj, line, from, key), key, format, args...)
	}
	row := s.row
	s.row++
	if raw, ok := m[slsAMType]; ok {
		t, err := jsonString(raw)
		if err != nil {
			return false, ferr(slsAMType, line, "%v", err)
		}
		if t != "mapreduce" {
			s.skipped[fmt.Sprintf("am.type %s (only mapreduce jobs are imported)", quote(t))]++
			return false, nil
		}
	}
	if raw, ok := m[slsJobCount]; ok {
		n, err := jsonInt(raw)
		if err != nil {
			return false, ferr(slsJobCount, line, "%v", err)
		}
		if n > 1 {
			return false, ferr(slsJobCount, line, "%d; repeated jobs are not supported: write each job out", n)
		}
	}
	raw, ok := m[slsJobStart]
	if !ok {
		return false, ferr(slsJobStart, line, "missing; want the job's start time in ms")
	}
	ms, err := jsonInt(raw)
	if err != nil {
		return false, ferr(slsJobStart, line, "%v", err)
	}
	submit, err := checkSeconds(float64(ms)/1000, "a start time")
	if err != nil {
		return false, ferr(slsJobStart, line, "%v", err)
	}
	if err := s.order.check(submit); err != nil {
		return false, ferr(slsJobStart, line, "%v", err)
	}
	*j = traces.Job{ID: int64(row), Name: strconv.Itoa(row), Submit: submit, Pool: "default", Priority: traces.Normal,
		SourceLine: int64(line), MapDurations: []float64{}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	for _, sv := range []struct {
		key string
		dst *string
	}{{slsJobID, &j.Name}, {slsQueue, &j.Pool}} {
		if raw, ok := m[sv.key]; ok {
			v, err := jsonString(raw)
			if err != nil {
				return false, ferr(sv.key, line, "%v", err)
			}
			*sv.dst = v
		}
	}
	raw, ok = m[slsTasks]
	if !ok {
		return false, ferr(slsTasks, line, "missing; want the job's containers")
	}
	var tasks []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tasks); err != nil {
		return false, ferr(slsTasks, line, "not a list of objects: %v", err)
	}
	mem := [2]int64{-1, -1}
	var cores [2]float64
	for i, t := range tasks {
		tl := line
		if i < len(s.tasks) {
			tl = s.tasks[i]
		}
		k := 0
		if raw, ok := t[slsType]; ok {
			v, err := jsonString(raw)
			if err != nil {
				return false, ferr(slsType, tl, "%v", err)
			}
			switch v {
			case "map":
			case "reduce":
				k = 1
			default:
				return false, ferr(slsType, tl, "%s; want map or reduce", quote(v))
			}
		}
		var d int64
		switch {
		case t[slsDuration] != nil:
			if d, err = jsonInt(t[slsDuration]); err != nil {
				return false, ferr(slsDuration, tl, "%v", err)
			}
		case t[slsDurationOld] != nil:
			if d, err = jsonInt(t[slsDurationOld]); err != nil {
				return false, ferr(slsDurationOld, tl, "%v", err)
			}
		case t[slsStart] != nil && t[slsEnd] != nil:
			a, err := jsonInt(t[slsStart])
			if err != nil {
				return false, ferr(slsStart, tl, "%v", err)
			}
			b, err := jsonInt(t[slsEnd])
			if err != nil {
				return false, ferr(slsEnd, tl, "%v", err)
			}
			if b < a {
				return false, ferr(slsEnd, tl, "%d ms is before container.start.ms %d ms; want end >= start", b, a)
			}
			if a < 0 || b-a < 0 {
				return false, ferr(slsStart, tl, "%d ms; want a time >= 0 ms", a)
			}
			d = b - a
		default:
			return false, ferr(slsEnd, tl, "missing; want container.duration.ms, or container.start.ms and container.end.ms")
		}
		dur, err := checkSeconds(float64(d)/1000, "a task duration")
		if err != nil {
			return false, ferr(slsDuration, tl, "%v", err)
		}
		count := int64(1)
		if raw, ok := t[slsCount]; ok {
			if count, err = jsonInt(raw); err != nil {
				return false, ferr(slsCount, tl, "%v", err)
			}
			if count < 1 {
				return false, ferr(slsCount, tl, "%d; want 1 or more", count)
			}
		}
		if int64(j.Maps()+j.Reduces())+count > MaxTasks {
			return false, ferr(slsTasks, tl, "more than %d tasks in the job", MaxTasks)
		}
		if raw, ok := t[slsMemory]; ok {
			mb, err := jsonInt(raw)
			if err != nil {
				return false, ferr(slsMemory, tl, "%v", err)
			}
			if mb > math.MaxInt64>>20 {
				return false, ferr(slsMemory, tl, "%d MiB overflows int64 bytes", mb)
			}
			mem[k] = max(mem[k], mb<<20)
		}
		if raw, ok := t[slsVcores]; ok {
			vc, err := jsonInt(raw)
			if err != nil {
				return false, ferr(slsVcores, tl, "%v", err)
			}
			if vc > 1e9 {
				return false, ferr(slsVcores, tl, "%d; want at most 1e9 cores", vc)
			}
			cores[k] = max(cores[k], float64(vc))
		}
		for range count {
			if k == 0 {
				j.MapDurations = append(j.MapDurations, dur)
			} else {
				j.ReduceDurations = append(j.ReduceDurations, dur)
				j.ReduceShuffleBytes = append(j.ReduceShuffleBytes, 0)
			}
		}
	}
	if j.Maps() == 0 {
		return false, ferr(slsTasks, line, "no map container; want at least one (container.type map)")
	}
	j.MapMemoryBytes, j.ReduceMemoryBytes = s.opt.MapMemory, s.opt.ReduceMemory
	j.MapCores, j.ReduceCores = cores[0], cores[1]
	if mem[0] >= 0 {
		j.MapMemoryBytes = mem[0]
	}
	if mem[1] >= 0 {
		j.ReduceMemoryBytes = mem[1]
	}
	return true, nil
}

// jsonInt reads an integer >= 0, written as a JSON number or a string (SLS
// reads both).
func jsonInt(raw json.RawMessage) (int64, error) {
	t := strings.TrimSpace(string(raw))
	if u, err := strconv.Unquote(t); err == nil {
		t = u
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s; want an integer", quote(string(raw)))
	}
	if v < 0 {
		return 0, fmt.Errorf("%d is negative; want an integer >= 0", v)
	}
	return v, nil
}

func jsonString(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s; want a string", quote(string(raw)))
	}
	// encoding/json turns a \u escape of a lone surrogate into U+FFFD
	// without a word; the file's own U+FFFD is kept.
	if strings.ContainsRune(s, utf8.RuneError) && strings.Count(s, "\uFFFD") > strings.Count(string(raw), "\uFFFD")+strings.Count(strings.ToLower(string(raw)), `\ufffd`) {
		return "", fmt.Errorf("%s: a \\u escape that is not a character (a lone surrogate); want UTF-8 text", quote(string(raw)))
	}
	return s, nil
}
