package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"sojourn/results"
	"sojourn/run"
	"sojourn/run/sweep"
)

// formatFlag is --format of every command that writes results.
var formatFlag = &cli.StringFlag{Name: "format", Value: "arrow",
	Usage: "file format of the result tables: arrow (Arrow IPC), parquet (Snappy-compressed, same columns and metadata) or csv (RFC 4180 with a header row, same columns, no metadata)"}

var sweepHelp = `Runs every cell of a declarative sweep: the cartesian product of the file's
workloads × policies × parameter values × seeds, one replay per cell, on
--parallel cores. The file is JSON:

  {
    "name": "policies-by-size",
    "workloads": [
      {"name": "fb2009", "profile": "fb2009"},
      {"name": "small", "profile": "fb2010", "jobs": 20, "mean_gap": 60, "nodes": 50},
      {"name": "mine", "trace": "traces/mine.arrow"}
    ],
    "policies": ["fifo", "fair", "hfsp", "lifo"],
    "exec": {"lifo": "python3 my_lifo.py"},
    "parameters": {"nodes": [20, 50, 100], "fair.locality-delay": [0, 1.5]},
    "fixed": {"map-slots": 4, "lifo.args": "depth=2"},
    "seeds": {"from": 1, "to": 10}
  }

A workload is a generated profile (fb2009 or fb2010; optional jobs, mean_gap
in seconds, and nodes, the cluster size its bytes are scaled to), made once
per seed, or a trace file relative to the sweep file, the same for every
seed. A parameter is a cluster parameter, named like bench replay's flag
and in the same unit:
` + wrap(strings.Join(sweep.ParameterNames(), ", "), 72, "  ") + `
or a policy option "policy.option", which varies only that policy's cells. "fixed" sets
single values the same way. "exec" names external policies (bench replay --help) and gives
their command lines; each name (letters, digits, '.', '_', '-'; no built-in policy's) is
listed in "policies", labels its results, and takes exec's options: "lifo.args",
"lifo.timeout". Seeds ([1, 2, 3] or {"from": a, "to": b};
default [1]) seed both the generated workloads and the replays.

Cells are numbered workloads, then policies, then parameter combinations
(names in sorted order, the last varying fastest), then seeds. --list
prints them.

Output (--out DIR):
  sweep.json               the sweep as run, output settings and code version
  traces/<workload>-seed<s>.arrow   the workloads (traces/ format)
  cells/NNNNNN/jobs.arrow  per-job results of cell NNNNNN (jobs.parquet or
                           jobs.csv with --format parquet or csv; tasks.*
                           with --tasks)
  cells/NNNNNN/cell.json   its coordinates, figures and per-job sojourn (s),
                           slowdown, node-local and finished maps
  summary.json             when every cell is done: the fixed settings, every
                           cell's figures and, per workload × policy ×
                           parameters (seeds pooled), the per-job values
                           bench compare resamples

Slowdown is a job's sojourn divided by its ideal run time alone on the
empty cluster: max(longest map, total map time / map slots) + max(longest
reduce, total reduce time / reduce slots), where a reduce's time is its
shuffle at its slot's share of the node bandwidth plus its run time, all at
trace durations (node-local, reference speed) and at least 1 ms.
Dimensionless; at least 1 on identical nodes.

Resuming: each cell is written in a hidden directory and renamed into place
when complete, so an interrupted run (Ctrl-C, SIGTERM, a lost node) is
resumed by running the same command: finished cells are skipped. A
directory holding another sweep, build or --format is refused.

Sharding: --shard i/n runs the cells whose index is i modulo n. With
--shards n the index comes from JOB_COMPLETION_INDEX (a Kubernetes Indexed
Job) or SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN (a Slurm job array;
there SLURM_ARRAY_TASK_COUNT also gives n). Shards may share one --out
(the last to finish writes summary.json) or write their own and be joined by
bench merge; either way the result is byte-identical to an unsharded run.`

// wrap breaks text into lines of at most width runes, indented.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, indent+line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, indent+line)
	}
	return strings.Join(lines, "\n")
}

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:        "sweep",
		Usage:       "run a sweep file (workloads × policies × parameters × seeds)",
		ArgsUsage:   "FILE",
		Description: sweepHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR` (created; resumed if it holds this sweep); required unless --list"},
			&cli.StringFlag{Name: "shard", Usage: "run shard `i/n`: the cells whose index is i modulo n (0 <= i < n)"},
			&cli.IntFlag{Name: "shards", Usage: "number of shards `n`, the index coming from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID"},
			&cli.IntFlag{Name: "parallel", Aliases: []string{"j"}, Value: runtime.GOMAXPROCS(0), DefaultText: "the cores Go may use", Usage: "cells replayed at once"},
			formatFlag,
			&cli.BoolFlag{Name: "tasks", Usage: "also write each cell's tasks file (one row per task segment)"},
			&cli.BoolFlag{Name: "list", Usage: "print the cells (index, shard, coordinates) and exit"},
		},
		Action: runSweep,
	}
}

func runSweep(c *cli.Context) error {
	if c.NArg() != 1 {
		return fmt.Errorf("sweep: give one sweep file (got %d arguments)", c.NArg())
	}
	plan, err := sweep.Load(c.Args().First())
	if err != nil {
		return err
	}
	shard, err := sweep.ResolveShard(c.String("shard"), c.Int("shards"), os.Getenv)
	if err != nil {
		return err
	}
	if c.Bool("list") {
		for _, cell := range plan.Cells {
			mark := " "
			if shard.Owns(cell.Index) {
				mark = "*"
			}
			fmt.Fprintf(c.App.Writer, "%s %6d  %s\n", mark, cell.Index, sweep.Label(cell))
		}
		fmt.Fprintf(c.App.Writer, "%d cells; * marks shard %s's\n", len(plan.Cells), shard)
		return nil
	}
	if c.String("out") == "" {
		return fmt.Errorf("sweep: give the output directory with --out")
	}
	if c.Int("parallel") < 1 {
		return fmt.Errorf("--parallel %d: want at least 1", c.Int("parallel"))
	}
	format, err := results.ParseFormat(c.String("format"))
	if err != nil {
		return fmt.Errorf("--%v", err)
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &sweep.Runner{Dir: c.String("out"), Workers: c.Int("parallel"), Shard: shard,
		Output:  sweep.Output{Format: string(format), Tasks: c.Bool("tasks")},
		Version: run.CodeVersion(), Progress: run.NewProgress(c.App.ErrWriter)}
	start := time.Now()
	rep, err := r.Run(ctx, plan)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "sweep %s: %d cells; shard %s: %d cells, %d run, %d already done (%.1f s)\n",
		plan.Spec.Name, rep.Cells, shard, rep.Mine, rep.Ran, rep.Skipped, time.Since(start).Seconds())
	if rep.Done {
		fmt.Fprintf(c.App.Writer, "summary: %s\n", r.Dir+"/"+sweep.SummaryFile)
	} else {
		fmt.Fprintf(c.App.Writer, "other shards' cells are not in %s yet: run them, then bench merge\n", r.Dir)
	}
	return nil
}
