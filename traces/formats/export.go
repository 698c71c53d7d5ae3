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
	for {
		err := next(&j)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := e.job(bw, &j); err != nil {
			return nil, err
		}
	}
	return e.notes(), bw.Flush()
}

type exporter interface {
	begin(w *bufio.Writer, params map[string]string) error
	job(w *bufio.Writer, j *traces.Job) error
	notes() []string
}

// csvExporter writes every field of the trace.
type csvExporter struct{ b []byte }

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

func (e *csvExporter) job(w *bufio.Writer, j *traces.Job) error {
	if strings.TrimSpace(j.Name) != j.Name || strings.TrimSpace(j.Pool) != j.Pool || strings.TrimSpace(j.Class) != j.Class {
		return fmt.Errorf("job %d: a name, pool or class with leading or trailing spaces, which the CSV importer trims", j.ID)
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
	_, err := w.Write(b)
	return err
}

func (e *csvExporter) notes() []string { return nil }

// swfExporter writes one SWF line per job: its tasks as processors.
type swfExporter struct {
	users    map[string]int64
	pools    []string
	averaged int
	moldable int // jobs not rigid, which SWF's importer reads back as rigid
	b        []byte
}

func (e *swfExporter) begin(w *bufio.Writer, params map[string]string) error {
	fmt.Fprintf(w, "; Version: 2.2\n; Computer: exported by sojourn's bench export\n")
	for _, k := range []struct{ param, key string }{{"swf.max_procs", "MaxProcs"}, {"swf.max_nodes", "MaxNodes"}} {
		if v, ok := params[k.param]; ok {
			fmt.Fprintf(w, "; %s: %s\n", k.key, v)
		}
	}
	_, err := w.WriteString("; Fields: job submit wait run procs cpu mem req_procs req_time req_mem status user group exe queue partition preceding think\n")
	return err
}

func (e *swfExporter) user(pool string) int64 {
	if pool == "unknown" {
		return -1
	}
	if n, ok := strings.CutPrefix(pool, "u"); ok {
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 && "u"+strconv.FormatInt(v, 10) == pool {
			return v
		}
	}
	if v, ok := e.users[pool]; ok {
		return v
	}
	v := int64(1_000_000 + len(e.pools))
	e.users[pool] = v
	e.pools = append(e.pools, pool)
	return v
}

func (e *swfExporter) job(w *bufio.Writer, j *traces.Job) error {
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
	run := j.MapDurations[0]
	if !same {
		run = work / float64(procs)
		e.averaged++
	}
	b := e.b[:0]
	num := func(v float64) {
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
		b = append(b, ' ')
	}
	num(float64(j.ID))
	num(j.Submit)
	num(-1)
	num(run)
	num(float64(procs))
	num(-1)
	num(-1)
	num(float64(procs))
	if j.HasEstimate {
		num(j.Estimate / float64(procs))
	} else {
		num(-1)
	}
	num(float64(j.MapMemoryBytes / 1024))
	num(1)
	num(float64(e.user(j.Pool)))
	for range 5 {
		num(-1)
	}
	b = append(b, "-1\n"...)
	e.b = b
	_, err := w.Write(b)
	return err
}

func (e *swfExporter) notes() []string {
	var n []string
	if e.averaged > 0 {
		n = append(n, fmt.Sprintf("%d jobs with tasks of different durations (or reduces) written with run time = work / tasks: SWF gives every processor one run time", e.averaged))
	}
	if e.moldable > 0 {
		n = append(n, fmt.Sprintf("%d jobs that are not rigid written as SWF jobs, which ask for all their processors at once: imported back, they are rigid", e.moldable))
	}
	for _, p := range e.pools {
		n = append(n, fmt.Sprintf("pool %q written as user %d", p, e.users[p]))
	}
	return n
}

// slsExporter writes one SLS job object per line.
type slsExporter struct {
	b          []byte
	rounded    int
	fractional int // fractional cores, rounded up
}

func (e *slsExporter) begin(*bufio.Writer, map[string]string) error { return nil }

func ms(s float64) int64 { return int64(math.Round(s * 1000)) }

func (e *slsExporter) job(w *bufio.Writer, j *traces.Job) error {
	start := ms(j.Submit)
	if float64(start)/1000 != j.Submit {
		e.rounded++
	}
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
	b := e.b[:0]
	b = append(b, `{"am.type": "mapreduce", "job.start.ms": `...)
	b = strconv.AppendInt(b, start, 10)
	b = append(b, `, "job.end.ms": `...)
	b = strconv.AppendInt(b, start+ms(longest[0])+ms(longest[1]), 10)
	b = append(b, `, "job.queue.name": `...)
	b = strconv.AppendQuote(b, j.Pool)
	b = append(b, `, "job.id": `...)
	b = strconv.AppendQuote(b, j.Name)
	b = append(b, `, "job.user": "default", "job.tasks": [`...)
	first := true
	for k, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
		kind, prio, mem := "map", 20, j.MapMemoryBytes
		if k == 1 {
			kind, prio, mem = "reduce", 10, j.ReduceMemoryBytes
		}
		for _, d := range ds {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			dm := ms(d)
			if float64(dm)/1000 != d {
				e.rounded++
			}
			b = append(b, `{"container.start.ms": `...)
			b = strconv.AppendInt(b, start, 10)
			b = append(b, `, "container.end.ms": `...)
			b = strconv.AppendInt(b, start+dm, 10)
			b = append(b, `, "container.priority": `...)
			b = strconv.AppendInt(b, int64(prio), 10)
			b = append(b, `, "container.type": "`...)
			b = append(b, kind...)
			b = append(b, `", "container.memory-mb": `...)
			b = strconv.AppendInt(b, mem>>20, 10)
			if c := cores[k]; c > 0 {
				b = append(b, `, "container.vcores": `...)
				b = strconv.AppendInt(b, int64(math.Ceil(c)), 10)
			}
			b = append(b, '}')
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
	return n
}
