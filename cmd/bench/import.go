package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"sojourn/swim"
	"sojourn/traces"
	"sojourn/traces/formats"
)

// importFormats are the formats bench import reads.
var importFormats = []string{"csv", "swf", "sls", "alibaba2018", "swim"}

// columnsHelp is a format's column table as bench import FORMAT
// --columns prints it: name and unit, then the meaning, folded to the
// help's width under its own column.
func columnsHelp(cols []formats.CSVColumn, numbered bool) string {
	var b strings.Builder
	const indent = 2 + 24 + 1 + 8 + 1
	for i, c := range cols {
		name := c.Name
		if numbered {
			name = fmt.Sprintf("%2d %s", i+1, c.Name)
		}
		b.WriteString(fold(fmt.Sprintf("  %-24s %-8s %s", name, c.Unit, c.Doc), indent, helpWidth))
	}
	return b.String()
}

// importColumns is what bench import FORMAT --columns prints: the
// columns, fields or keys FORMAT is read by.
func importColumns(format string) (string, error) {
	switch format {
	case "csv":
		return "csv: a job table with a header row (columns in any order):\n" +
			columnsHelp(formats.CSVJobColumns, false) +
			reflow("Durations are given as per-task lists, as means with a skew, or in a task table "+
				"(--tasks FILE), one row per task, the tasks of a job together and jobs in the job "+
				"table's order; its columns:", helpWidth) + "\n" +
			columnsHelp(formats.CSVTaskColumns, false), nil
	case "swf":
		return reflow("swf: the Standard Workload Format v2.2, 18 whitespace-separated fields per job, "+
			"';' comments. A job becomes a rigid map-only job of its processors, each a task of its "+
			"run time, with no input data (its maps have no locality); easy starts a rigid job's maps "+
			"together, other policies one by one (bench replay notes it). The header's MaxProcs and "+
			"MaxNodes are kept as swf.max_procs and swf.max_nodes.", helpWidth) + "\n" +
			columnsHelp(formats.SWFFields[:], true), nil
	case "sls":
		return "sls: the YARN Scheduler Load Simulator's JSON trace, a stream of job objects:\n" +
			columnsHelp(formats.SLSKeys, false), nil
	case "alibaba2018":
		return "alibaba2018: cluster-trace-v2018's batch_task.csv (no header), a row a stage:\n" +
			columnsHelp(formats.AlibabaColumns[:], true) +
			reflow("Jobs of one stage become map-only jobs, of one stage feeding another map/reduce "+
				"jobs; every other DAG is skipped and counted by shape on stderr. The table is held in "+
				"memory (about 370 bytes a row at peak) since a job's rows may be anywhere.", helpWidth) + "\n", nil
	case "swim":
		return reflow("swim: a SWIM workload TSV, taken whole (bench generate --swim FILE --whole, with "+
			"the generator's defaults and --seed, --nodes): bytes become tasks by the natural rule.", helpWidth) + "\n", nil
	}
	return "", fmt.Errorf("import: unknown format %q; want one of %s", format, strings.Join(importFormats, ", "))
}

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "turn a csv, swf, sls, alibaba2018 or swim workload into a trace",
		ArgsUsage: "FORMAT FILE",
		Description: "Reads FILE as a stream and writes the trace (Arrow IPC, schema version " + traces.SchemaVersion + ") atomically at --out:\n" +
			"nothing is left under that name on an error. The trace's import.format and import.source\n" +
			"parameters name the format and FILE, and each job's source_line column its line in FILE.\n" +
			"Times and durations must be finite, >= 0 and at most 1e9 s (31.7 years); an error is one\n" +
			"line naming the file, the line and the field. Jobs must be in submit order (sort the file\n" +
			"first), except for alibaba2018, whose jobs are sorted by the importer.\n\n" +
			"Formats: " + strings.Join(importFormats, ", ") + ". bench import FORMAT --columns lists the " +
			"columns, fields or keys a format is read by, with their units; docs/workloads.md shows " +
			"examples.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "trace `PATH` to write (Arrow IPC; written atomically) (required)"},
			&cli.BoolFlag{Name: "columns", Usage: "print the columns, fields or keys of FORMAT, with their units and meaning, and exit"},
			&cli.StringFlag{Name: "tasks", Usage: "csv: the task table `FILE`, one row per task (then the job table has no durations)"},
			&cli.StringFlag{Name: "swf.status", Usage: "swf: failed (0) and cancelled (5) jobs: keep (they held their processors for their run time) or drop", Value: "keep"},
			&cli.StringFlag{Name: "map-memory", Usage: "memory of a map task when the source gives none, in bytes (suffixes KiB, MiB, GiB)", Value: "512MiB"},
			&cli.StringFlag{Name: "reduce-memory", Usage: "memory of a reduce task when the source gives none, in bytes (suffixes allowed)", Value: "1GiB"},
			&cli.StringFlag{Name: "alibaba.machine-memory", Usage: "alibaba2018: the memory plan_mem (0-100) is a percentage of, in bytes (suffixes allowed)", Value: "96GiB"},
			&cli.Uint64Flag{Name: "seed", Usage: "csv: seed of the per-task skew (map_mean_s with skew); swim: the generator's seed", Value: 1},
			&cli.IntFlag{Name: "nodes", Usage: "swim: target cluster size, in nodes (bytes are scaled by nodes/original-nodes)", Value: swim.DefaultNodes},
			&cli.IntFlag{Name: "original-nodes", Usage: "swim: size of the cluster the bytes come from, in nodes", DefaultText: "guessed from the file name: 600 for FB-2009, 3000 for FB-2010"},
		},
		Action: runImport,
	}
}

func runImport(c *cli.Context) error {
	if c.Bool("columns") {
		if c.NArg() != 1 {
			return fmt.Errorf("import: --columns wants FORMAT alone, got %d arguments; see bench import --help", c.NArg())
		}
		text, err := importColumns(c.Args().First())
		if err != nil {
			return err
		}
		_, err = io.WriteString(c.App.Writer, text)
		return err
	}
	if !c.IsSet("out") {
		return errors.New("import: required flag --out missing; see bench import --help")
	}
	if c.NArg() != 2 {
		return fmt.Errorf("import: want FORMAT FILE, got %d arguments; see bench import --help", c.NArg())
	}
	format, path, out := c.Args().Get(0), c.Args().Get(1), c.String("out")
	if fi, err := os.Stat(path); err != nil {
		return err
	} else if fi.IsDir() {
		return fmt.Errorf("%s: a directory; want a %s file", path, format)
	}
	for _, in := range []struct{ flag, path string }{{"FILE", path}, {"--tasks", c.String("tasks")}} {
		if in.path != "" && sameFile(in.path, out) {
			return fmt.Errorf("--out: %s is the %s input; writing it would replace the workload being read", out, in.flag)
		}
	}
	if c.IsSet("tasks") && format != "csv" {
		return fmt.Errorf("--tasks: applies only to csv")
	}
	if c.IsSet("swf.status") && format != "swf" {
		return fmt.Errorf("--swf.status: applies only to swf")
	}
	if c.IsSet("alibaba.machine-memory") && format != "alibaba2018" {
		return fmt.Errorf("--alibaba.machine-memory: applies only to alibaba2018")
	}
	for _, f := range []string{"nodes", "original-nodes"} {
		if c.IsSet(f) && format != "swim" {
			return fmt.Errorf("--%s: applies only to swim", f)
		}
	}
	if c.IsSet("seed") && format != "csv" && format != "swim" {
		return fmt.Errorf("--seed: applies only to csv (the skew of map_mean_s) and swim")
	}
	for _, f := range []string{"map-memory", "reduce-memory"} {
		if c.IsSet(f) && format == "swim" {
			return fmt.Errorf("--%s: applies to csv, swf, sls and alibaba2018, not swim (its generator sizes the tasks)", f)
		}
	}
	if format == "swim" {
		return importSWIM(c, path, out)
	}
	opt := formats.Options{Name: path, Seed: c.Uint64("seed"), SWFStatus: c.String("swf.status")}
	if opt.SWFStatus != "keep" && opt.SWFStatus != "drop" {
		return fmt.Errorf("--swf.status: %q; want keep or drop", opt.SWFStatus)
	}
	var err error
	for _, m := range []struct {
		flag string
		dst  *int64
	}{{"map-memory", &opt.MapMemory}, {"reduce-memory", &opt.ReduceMemory}} {
		v, err := parseBytes(c.String(m.flag))
		if err != nil {
			return fmt.Errorf("--%s: %v", m.flag, err)
		}
		if v == 0 {
			return fmt.Errorf("--%s: 0; want a byte count > 0, the memory of a task whose source gives none", m.flag)
		}
		*m.dst = v
	}
	machine, err := parseBytes(c.String("alibaba.machine-memory"))
	if err != nil || machine == 0 {
		return fmt.Errorf("--alibaba.machine-memory: %q; want a byte count > 0", c.String("alibaba.machine-memory"))
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if tp := c.String("tasks"); tp != "" {
		if fi, err := os.Stat(tp); err == nil && fi.IsDir() {
			return fmt.Errorf("%s: a directory; want the csv task table", tp)
		}
		tf, err := os.Open(tp)
		if err != nil {
			return err
		}
		defer tf.Close()
		opt.Tasks, opt.TasksName = tf, tp
	}
	var imp formats.Importer
	switch format {
	case "csv":
		imp, err = formats.NewCSV(f, opt)
	case "swf":
		imp, err = formats.NewSWF(f, opt)
	case "sls":
		imp, err = formats.NewSLS(f, opt)
	case "alibaba2018":
		imp, err = formats.NewAlibaba(f, opt, machine)
	default:
		return fmt.Errorf("import: unknown format %q; want one of %s", format, strings.Join(importFormats, ", "))
	}
	if err != nil {
		return err
	}
	if c.IsSet("seed") && format == "csv" && imp.Params()["import.seed"] == "" {
		return fmt.Errorf("--seed: %s has no map_mean_s column; the seed drives only the skew of mean durations", path)
	}
	jobs, maps, reduces, err := writeTrace(out, imp.Params(), imp.Next)
	if errors.Is(err, errNoJobs) && len(imp.Notes()) > 0 {
		return fmt.Errorf("%w: %s", err, strings.Join(imp.Notes(), "; "))
	}
	if err != nil {
		return err // one line: the notes describe a trace not written
	}
	for _, n := range imp.Notes() {
		fmt.Fprintln(c.App.ErrWriter, "import:", n)
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %d jobs, %d maps, %d reduces (from %s %s)\n", out, jobs, maps, reduces, format, path)
	return nil
}

// errNoJobs is the error of a source that gives no job.
var errNoJobs = errors.New("no job to import (every job was skipped, or the file has none); a trace needs one")

// writeTrace writes the jobs next hands out to a trace at out, atomically.
// An error about the source names the source, not the trace.
func writeTrace(out string, params map[string]string, next func(*traces.Job) error) (jobs, maps, reduces int, err error) {
	var srcErr error
	err = traces.Create(out, params, func(w *traces.Writer) error {
		var j traces.Job
		for {
			switch err := next(&j); {
			case errors.Is(err, io.EOF) && jobs == 0:
				srcErr = fmt.Errorf("%s: %w", params["import.source"], errNoJobs)
				return srcErr
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				srcErr = err
				return err
			}
			if err := w.Write(&j); err != nil {
				srcErr = fmt.Errorf("%s:%d: %w", params["import.source"], j.SourceLine, err)
				return srcErr
			}
			jobs++
			maps += j.Maps()
			reduces += j.Reduces()
		}
	})
	if srcErr != nil {
		err = srcErr
	}
	return
}

// importSWIM takes a SWIM TSV whole, as bench generate --swim FILE --whole.
func importSWIM(c *cli.Context, path, out string) error {
	src, err := swim.ReadTSV(path)
	if err != nil {
		return err
	}
	cfg := swim.Config{Seed: c.Uint64("seed"), Nodes: c.Int("nodes"), OriginalNodes: c.Int("original-nodes"), Source: src, Whole: true}
	if c.IsSet("original-nodes") && cfg.OriginalNodes <= 0 {
		return errors.New("--original-nodes: want 1 or more")
	}
	if c.IsSet("nodes") && cfg.Nodes <= 0 {
		return fmt.Errorf("--nodes: %d; want 1 or more", cfg.Nodes)
	}
	if err := cfg.Validate(); err != nil {
		return flagError(err)
	}
	g, err := swim.NewGenerator(cfg)
	if err != nil {
		return flagError(err)
	}
	params := g.Params()
	params["import.format"], params["import.source"] = "swim", path
	// Taken whole, job i is the file's i-th row: its line is the i-th
	// non-blank line, which ParseTSV does not keep.
	lines, err := nonBlankLines(path)
	if err != nil {
		return err
	}
	i := 0
	next := func(j *traces.Job) error {
		if err := g.Next(j); err != nil {
			return err
		}
		if i < len(lines) {
			j.SourceLine = lines[i]
		}
		i++
		if j.Submit > formats.MaxSeconds {
			return fmt.Errorf("%s:%d: column 2 (submit_s): %v s is too large; want a submit time <= %g s (31.7 years)", path, j.SourceLine, j.Submit, float64(formats.MaxSeconds))
		}
		return nil
	}
	jobs, maps, reduces, err := writeTrace(out, params, next)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %d jobs, %d maps, %d reduces (from swim %s)\n", out, jobs, maps, reduces, path)
	return nil
}

// nonBlankLines lists the numbers (from 1) of the lines of path that are
// not blank, as ParseTSV counts rows.
func nonBlankLines(path string) ([]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var lines []int64
	for n := int64(1); sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) != "" {
			lines = append(lines, n)
		}
	}
	return lines, sc.Err()
}
