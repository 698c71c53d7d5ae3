package formats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sojourn/traces"
)

// ExportFormats are the formats Export writes.
var ExportFormats = []string{"csv", "swf", "sls"}

// Export writes the jobs next hands out (until io.EOF) to w in format
// (csv, swf or sls); params are the trace's parameters. It returns notes
// on what the format could not hold.
func Export(format string, w io.Writer, params map[string]string, next func(*traces.Job) error) ([]string, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var e exporter
	switch format {
	case "csv":
		e = &csvExporter{}
	case "swf":
		e = &swfExporter{users: map[string]int64{}}
	case "sls":
		e = &slsExporter{}
	default:
		return nil, fmt.Errorf("unknown export format %q; want one of %s", format, strings.Join(ExportFormats, ", "))
	}
	if err := e.begin(bw, params); err != nil {
		return nil, err
	}
	var j traces.Job
	var lost lost
	for row := 0; ; row++ {
		err := next(&j)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := checkExportable(&j); err != nil {
			return nil, &ExportError{Row: row, Job: j.ID, Msg: err.Error()}
		}
		if err := e.job(bw, &j, row, &lost); err != nil {
			return nil, &ExportError{Row: row, Job: j.ID, Msg: err.Error()}
		}
	}
	return append(e.notes(), lost.notes(format)...), bw.Flush()
}

// ExportError is a job that the format, or its importer, cannot hold:
// nothing of the export is kept.
type ExportError struct {
	Row int   // from 0
	Job int64 // its id
	Msg string
}

func (e *ExportError) Error() string {
	return fmt.Sprintf("row %d (job %d): %s", e.Row, e.Job, e.Msg)
}

// checkExportable refuses what no importer reads back: times beyond
// MaxSeconds, core counts beyond 1e9 and text that is not UTF-8.
func checkExportable(j *traces.Job) error {
	if j.Submit > MaxSeconds {
		return fmt.Errorf("submit time %v s; bench import reads times up to %g s", j.Submit, float64(MaxSeconds))
	}
	for k, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		for i, d := range ds {
			if d > MaxSeconds {
				return fmt.Errorf("%s %d lasts %v s; bench import reads durations up to %g s", [2]string{"map", "reduce"}[k], i, d, float64(MaxSeconds))
			}
		}
	}
	if j.HasEstimate && j.Estimate > MaxSeconds {
		return fmt.Errorf("estimate %v slot-s; bench import reads estimates up to %g", j.Estimate, float64(MaxSeconds))
	}
	if j.MapCores > 1e9 || j.ReduceCores > 1e9 {
		return fmt.Errorf("%v map cores, %v reduce cores; bench import reads up to 1e9", j.MapCores, j.ReduceCores)
	}
	for _, s := range []struct{ what, v string }{{"name", j.Name}, {"pool", j.Pool}, {"class", j.Class}} {
		if !utf8.ValidString(s.v) {
			return fmt.Errorf("the %s %s is not UTF-8", s.what, quote(s.v))
		}
	}
	return nil
}

// lost counts, by field, the jobs whose value a format does not hold, for
// a note each.
type lost map[string]int

func (l *lost) add(field string) {
	if *l == nil {
		*l = lost{}
	}
	(*l)[field]++
}

func (l lost) notes(format string) []string {
	var n []string
	for _, f := range sortedKeys(l) {
		n = append(n, fmt.Sprintf("%d jobs: %s not written (%s has no such field)", l[f], f, format))
	}
	return n
}

type exporter interface {
	begin(w *bufio.Writer, params map[string]string) error
	// job writes j, the row-th job, counting in lost the fields the
	// format does not hold.
	job(w *bufio.Writer, j *traces.Job, row int, lost *lost) error
	notes() []string
}

// csvExporter writes every field of the trace but source_line.
type csvExporter struct {
	b       []byte
	unnamed int // empty names, read back as the job id
	nopool  int // empty pools, read back as default
}

var csvExportColumns = []string{csvJobID, csvName, csvSubmit, csvPool, csvPriority, csvClass, csvMaps, csvReduces,
	csvMapDurations, csvRedDurations, csvMapMemory, csvRedMemory, csvEstimate, csvMapCores, csvRedCores,
	csvInput, csvShuffle, csvOutput, csvReduceShuffles, csvRigid}

func (e *csvExporter) begin(w *bufio.Writer, _ map[string]string) error {
	_, err := w.WriteString(strings.Join(csvExportColumns, ",") + "\n")
	return err
}

func csvQuote(s string) string {
	if s == "" || !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func (e *csvExporter) job(w *bufio.Writer, j *traces.Job, _ int, _ *lost) error {
	for _, s := range []struct{ what, v string }{{"name", j.Name}, {"pool", j.Pool}, {"class", j.Class}} {
		if strings.TrimSpace(s.v) != s.v {
			return fmt.Errorf("the %s %s has leading or trailing spaces, which the CSV importer trims", s.what, quote(s.v))
		}
		if strings.ContainsRune(s.v, '\r') {
			return fmt.Errorf("the %s %s holds a carriage return, which CSV readers drop before a newline", s.what, quote(s.v))
		}
	}
	if j.Name == "" {
		e.unnamed++
	}
	if j.Pool == "" {
		e.nopool++
	}
	b := e.b[:0]
	b = strconv.AppendInt(b, j.ID, 10)
	b = append(b, ',')
	b = append(b, csvQuote(j.Name)...)
	b = append(b, ',')
	b = strconv.AppendFloat(b, j.Submit, 'g', -1, 64)
	b = append(b, ',')
	b = append(b, csvQuote(j.Pool)...)
	b = append(b, ',')
	b = append(b, j.Priority.String()...)
	b = append(b, ',')
	b = append(b, csvQuote(j.Class)...)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(j.Maps()), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(j.Reduces()), 10)
	for _, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		b = append(b, ',')
		for i, d := range ds {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendFloat(b, d, 'g', -1, 64)
		}
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, j.MapMemoryBytes, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, j.ReduceMemoryBytes, 10)
	b = append(b, ',')
	if j.HasEstimate {
		b = strconv.AppendFloat(b, j.Estimate, 'g', -1, 64)
	}
	for _, c := range []float64{j.MapCores, j.ReduceCores} {
		b = append(b, ',')
		if c != 0 {
			b = strconv.AppendFloat(b, c, 'g', -1, 64)
		}
	}
	for _, v := range []int64{j.MapInputBytes, j.ShuffleBytes, j.OutputBytes} {
		b = append(b, ',')
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, ',')
	for i, v := range j.ReduceShuffleBytes {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, ',')
	b = strconv.AppendBool(b, j.Rigid)
	b = append(b, '\n')
	e.b = b
	if len(b) > MaxLine {
		return fmt.Errorf("its row is %d bytes; the CSV importer reads rows of at most %d bytes (1 MiB), about 60,000 listed tasks: export sls, whose lines hold one task", len(b), MaxLine)
	}
	_, err := w.Write(b)
	return err
}

func (e *csvExporter) notes() []string {
	var n []string
	if e.unnamed > 0 {
		n = append(n, fmt.Sprintf("%d jobs with an empty name written with none: imported back, a job's name is its job_id", e.unnamed))
	}
	if e.nopool > 0 {
		n = append(n, fmt.Sprintf("%d jobs with an empty pool written with none: imported back, their pool is default", e.nopool))
	}
	return n
}

// swfExporter writes one SWF line per job: its tasks as processors.
type swfExporter struct {
	users    map[string]int64 // pools not of the form u<n>, by the user written
	taken    map[int64]string // user numbers written, by pool
	pools    []string
	nextUser int64
	averaged int
	moldable int // jobs not rigid, which SWF's importer reads back as rigid
	reduces  int // jobs with reduces, read back as map-only
	memUp    int // memory rounded up to whole KB
	b        []byte
}

// swfMax is the largest number the SWF importer reads in a field.
const swfMax = 1e15

func (e *swfExporter) begin(w *bufio.Writer, params map[string]string) error {
	e.taken = map[int64]string{}
	e.nextUser = 1_000_000
	fmt.Fprintf(w, "; Version: 2.2\n; Computer: exported by sojourn's bench export\n")
	for _, k := range []struct{ param, key string }{{"swf.max_procs", "MaxProcs"}, {"swf.max_nodes", "MaxNodes"}} {
		if v, ok := params[k.param]; ok && !strings.ContainsAny(v, "\r\n") {
			fmt.Fprintf(w, "; %s: %s\n", k.key, v)
		}
	}
	_, err := w.WriteString("; Fields: job submit wait run procs cpu mem req_procs req_time req_mem status user group exe queue partition preceding think\n")
	return err
}

// user is the SWF user of pool: n for u<n> (as the importer names users),
// -1 for unknown, and for any other pool the next number from 1000000 not
// yet written.
func (e *swfExporter) user(pool string) (int64, error) {
	if pool == "unknown" {
		return -1, nil
	}
	if n, ok := strings.CutPrefix(pool, "u"); ok {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 && v <= swfMax && "u"+strconv.FormatInt(v, 10) == pool {
			if p, ok := e.taken[v]; ok && p != pool {
				return 0, fmt.Errorf("pool %s is SWF user %d, which pool %s was written as", quote(pool), v, quote(p))
			}
			e.taken[v] = pool
			return v, nil
		}
	}
	if v, ok := e.users[pool]; ok {
		return v, nil
	}
	for {
		if _, ok := e.taken[e.nextUser]; !ok {
			break
		}
		e.nextUser++
	}
	v := e.nextUser
	e.users[pool], e.taken[v] = v, pool
	e.pools = append(e.pools, pool)
	return v, nil
}

func (e *swfExporter) job(w *bufio.Writer, j *traces.Job, _ int, lost *lost) error {
	if j.ID > swfMax {
		return fmt.Errorf("job id %d; SWF's importer reads job numbers up to %g", j.ID, float64(swfMax))
	}
	procs := j.Maps() + j.Reduces()
	var work float64
	same := true
	for _, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		for _, d := range ds {
			work += d
			same = same && d == j.MapDurations[0]
		}
	}
	if !j.Rigid {
		e.moldable++
	}
	if j.Reduces() > 0 {
		e.reduces++
	}
	run := j.MapDurations[0]
	if !same {
		run = min(work/float64(procs), MaxSeconds)
		e.averaged++
	}
	user, err := e.user(j.Pool)
	if err != nil {
		return err
	}
	memKB := j.MapMemoryBytes / 1024
	if j.MapMemoryBytes%1024 != 0 {
		memKB++
		e.memUp++
	}
	if memKB > swfMax {
		return fmt.Errorf("map memory %d bytes; SWF's importer reads memories up to %g KB", j.MapMemoryBytes, float64(swfMax))
	}
	if j.Name != strconv.FormatInt(j.ID, 10) {
		lost.add("the name (read back as the job number)")
	}
	countLost(j, lost, true)
	b := e.b[:0]
	num := func(v float64) {
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
		b = append(b, ' ')
	}
	integer := func(v int64) {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ' ')
	}
	integer(j.ID)
	num(j.Submit)
	integer(-1)
	num(run)
	integer(int64(procs))
	integer(-1)
	integer(-1)
	integer(int64(procs))
	if j.HasEstimate {
		num(j.Estimate / float64(procs))
	} else {
		integer(-1)
	}
	integer(memKB)
	integer(1)
	integer(user)
	for range 5 {
		integer(-1)
	}
	b = append(b, "-1\n"...)
	e.b = b
	_, err = w.Write(b)
	return err
}

// countLost counts the fields of j that neither SWF nor SLS hold.
func countLost(j *traces.Job, lost *lost, swf bool) {
	if j.Priority != traces.Normal {
		lost.add("the priority (read back as NORMAL)")
	}
	if j.Class != "" {
		lost.add("the class")
	}
	if j.MapInputBytes != 0 || j.ShuffleBytes != 0 || j.OutputBytes != 0 || slices.ContainsFunc(j.ReduceShuffleBytes, func(b int64) bool { return b != 0 }) {
		lost.add("input, shuffle and output bytes (read back as 0: maps without locality)")
	}
	if swf {
		if j.MapCores != 0 || j.ReduceCores != 0 {
			lost.add("task cores")
		}
		if j.Reduces() > 0 {
			lost.add("the reduce memory")
		}
	} else {
		if j.HasEstimate {
			lost.add("the estimate")
		}
		if j.Rigid {
			lost.add("rigid (read back as not rigid)")
		}
	}
}

func (e *swfExporter) notes() []string {
	var n []string
	if e.averaged > 0 {
		n = append(n, fmt.Sprintf("%d jobs with tasks of different durations (or reduces) written with run time = work / tasks: SWF gives every processor one run time", e.averaged))
	}
	if e.moldable > 0 {
		n = append(n, fmt.Sprintf("%d jobs that are not rigid written as SWF jobs, which ask for all their processors at once: imported back, they are rigid", e.moldable))
	}
	if e.reduces > 0 {
		n = append(n, fmt.Sprintf("%d jobs with reduces written with maps and reduces as processors: imported back, they are map-only", e.reduces))
	}
	if e.memUp > 0 {
		n = append(n, fmt.Sprintf("%d map memories rounded up to whole KB (SWF counts KB)", e.memUp))
	}
	for _, p := range e.pools {
		n = append(n, fmt.Sprintf("pool %s written as user %d", quote(p), e.users[p]))
	}
	return n
}

// slsExporter writes one SLS job object per job, a line for the job and
// one for each task, so that no line of a large job nears MaxLine.
type slsExporter struct {
	b          []byte
	rounded    int
	fractional int // fractional cores, rounded up
	memUp      int // memory rounded up to whole MiB
}

func (e *slsExporter) begin(*bufio.Writer, map[string]string) error { return nil }

func ms(s float64) int64 { return int64(math.Round(s * 1000)) }

// appendJSONString appends s, UTF-8 text, as a JSON string: control
// characters as \u escapes, everything else as it is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			b = fmt.Appendf(b, "\\u%04x", r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// mib is bytes in whole MiB, rounded up, and whether it was rounded.
func mib(bytes int64) (int64, bool) {
	m := bytes >> 20
	if bytes&(1<<20-1) != 0 {
		return m + 1, true
	}
	return m, false
}

func (e *slsExporter) job(w *bufio.Writer, j *traces.Job, row int, lost *lost) error {
	start := ms(j.Submit)
	if float64(start)/1000 != j.Submit {
		e.rounded++
	}
	if j.ID != int64(row) {
		lost.add("the job id (read back as the job's position, from 0)")
	}
	countLost(j, lost, false)
	longest := [2]float64{}
	for k, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		for _, d := range ds {
			longest[k] = max(longest[k], d)
		}
	}
	cores := [2]float64{j.MapCores, j.ReduceCores}
	for _, c := range cores {
		if c != math.Ceil(c) {
			e.fractional++
		}
	}
	var mem [2]int64
	for k, m := range []int64{j.MapMemoryBytes, j.ReduceMemoryBytes} {
		var up bool
		if mem[k], up = mib(m); up && (k == 0 || j.Reduces() > 0) {
			e.memUp++
		}
		if mem[k] > math.MaxInt64>>20 && (k == 0 || j.Reduces() > 0) {
			return fmt.Errorf("task memory %d bytes; SLS's importer reads up to %d MiB", m, int64(math.MaxInt64>>20))
		}
	}
	if j.Reduces() == 0 && j.ReduceMemoryBytes != DefaultReduceMemory {
		lost.add("the reduce memory of a job without reduces (read back as --reduce-memory)")
	}
	if j.Reduces() == 0 && j.ReduceCores != 0 {
		lost.add("the reduce cores of a job without reduces")
	}
	b := e.b[:0]
	b = append(b, `{"am.type": "mapreduce", "job.start.ms": `...)
	b = strconv.AppendInt(b, start, 10)
	b = append(b, `, "job.end.ms": `...)
	b = strconv.AppendInt(b, start+ms(longest[0])+ms(longest[1]), 10)
	b = append(b, `, "job.queue.name": `...)
	b = appendJSONString(b, j.Pool)
	b = append(b, `, "job.id": `...)
	b = appendJSONString(b, j.Name)
	b = append(b, `, "job.user": "default", "job.tasks": [`...)
	first := true
	for k, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		kind, prio := "map", 20
		if k == 1 {
			kind, prio = "reduce", 10
		}
		for _, d := range ds {
			if !first {
				b = append(b, ',')
			}
			first = false
			dm := ms(d)
			if float64(dm)/1000 != d {
				e.rounded++
			}
			b = append(b, "\n  {\"container.start.ms\": "...)
			b = strconv.AppendInt(b, start, 10)
			b = append(b, `, "container.end.ms": `...)
			b = strconv.AppendInt(b, start+dm, 10)
			b = append(b, `, "container.priority": `...)
			b = strconv.AppendInt(b, int64(prio), 10)
			b = append(b, `, "container.type": "`...)
			b = append(b, kind...)
			b = append(b, `", "container.memory-mb": `...)
			b = strconv.AppendInt(b, mem[k], 10)
			if c := cores[k]; c > 0 {
				b = append(b, `, "container.vcores": `...)
				b = strconv.AppendInt(b, int64(math.Ceil(c)), 10)
			}
			b = append(b, '}')
			if len(b) > 64<<10 {
				if _, err := w.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	}
	b = append(b, "]}\n"...)
	e.b = b
	_, err := w.Write(b)
	return err
}

func (e *slsExporter) notes() []string {
	var n []string
	if e.rounded > 0 {
		n = append(n, fmt.Sprintf("%d times rounded to the millisecond (SLS counts ms)", e.rounded))
	}
	if e.fractional > 0 {
		n = append(n, fmt.Sprintf("%d fractional core counts rounded up to whole vcores (SLS counts whole vcores)", e.fractional))
	}
	if e.memUp > 0 {
		n = append(n, fmt.Sprintf("%d task memories rounded up to whole MiB (SLS counts MiB)", e.memUp))
	}
	return n
}
