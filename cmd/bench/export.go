package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"sojourn/internal/atomicfile"
	"sojourn/traces"
	"sojourn/traces/formats"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a trace in another format (csv, swf, sls)",
		ArgsUsage: "FORMAT TRACE",
		Description: "Reads TRACE job by job and writes it at --out, atomically, in FORMAT. " +
			"A field the format cannot hold is counted in a note on stderr; a value its importer " +
			"would refuse is an error naming the row, and nothing is written.\n\n" +
			"csv: the job table of bench import csv with every column (per-task durations and " +
			"shuffle bytes as space-separated lists, estimate_s empty for none): every field of " +
			"the trace but source_line.\n\n" +
			"swf: one line per job: processors = maps + reduces, run time = their common duration, " +
			"or work / tasks when they differ, requested time = estimate / tasks, requested memory " +
			"= map memory in KB, user from the pool u<n> (other pools get numbers from 1000000), " +
			"status 1, unknown fields -1; the header keeps swf.max_procs/max_nodes.\n\n" +
			"sls: one JSON object per job, a line for the job and one per task: job.start.ms = " +
			"submit, one container per task from the submit time for its duration (ms; finer " +
			"times are rounded), container.memory-mb, priority 20 for maps and 10 for reduces, " +
			"no container.host; bytes and estimates are lost.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "`FILE` to write (written atomically)", Required: true},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fmt.Errorf("export: want FORMAT TRACE, got %d arguments; see bench export --help", c.NArg())
			}
			format, path, out := c.Args().Get(0), c.Args().Get(1), c.String("out")
			if !slices.Contains(formats.ExportFormats, format) {
				return fmt.Errorf("export: unknown format %q; want one of %s", format, strings.Join(formats.ExportFormats, ", "))
			}
			if sameFile(path, out) {
				return fmt.Errorf("--out: %s is the TRACE input; writing it would replace the trace being read", out)
			}
			r, err := traces.Open(path)
			if err != nil {
				return err
			}
			defer r.Close()
			var notes []string
			err = atomicfile.Write(out, func(f *os.File) error {
				var err error
				notes, err = formats.Export(format, f, r.Params(), r.Next)
				return err
			})
			var ee *formats.ExportError
			if errors.As(err, &ee) {
				return fmt.Errorf("%s: %w; nothing written to %s", path, err, out)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", out, err)
			}
			for _, n := range notes {
				fmt.Fprintln(c.App.ErrWriter, "export:", n)
			}
			fmt.Fprintf(c.App.Writer, "wrote %s: %d jobs as %s\n", out, r.Len(), format)
			return nil
		},
	}
}
