// Command slurmref is the Go half of docs/slurm-validate.sh, which runs a
// small rigid workload of sleep jobs on a real Slurm and replays the same
// workload under the easy policy. It has four subcommands:
//
//	slurmref plan    --seed S --jobs N --cpus C               the workload, one job a line
//	slurmref csv     --plan F --slurm F [--log L]             the workload as Slurm ran it, for bench import csv
//	slurmref passes  --log L --t0 T                           the instants of Slurm's scheduling runs, for easy's pass-times
//	slurmref compare --plan F --slurm F [--log L] --replay jobs.csv  agreement of the start times
//
// plan prints "job submit_s run_s cpus limit_min" lines: the jobs to
// submit, each a sleep of run_s seconds on cpus CPUs with a time limit of
// limit_min minutes (Slurm's time limits are whole minutes). The script
// records what Slurm did as "job submit start end state" lines in epoch
// seconds (scontrol's whole seconds), the first job's submission at time 0
// being given by --t0. With --log, slurmctld's log gives the same times to
// the millisecond (checked against scontrol's seconds): Slurm's backfill
// passes every second at some fraction of it, and which side of a pass a
// job's end falls decides what starts then; passes lists the runs of
// Slurm's backfill agent and main scheduler, for easy's pass-times.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "slurmref:", err)
		os.Exit(1)
	}
}

const usage = "usage: slurmref plan|csv|passes|compare [options]; slurmref CMD -h lists CMD's options"

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("slurmref "+args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	switch args[0] {
	case "plan":
		seed := fs.Uint64("seed", 1, "seed of the workload")
		jobs := fs.Int("jobs", 50, "jobs")
		cpus := fs.Int("cpus", 16, "CPUs of the node; the widest job's width")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		if *jobs < 1 || *cpus < 1 {
			return fmt.Errorf("plan: -jobs %d, -cpus %d: want both >= 1", *jobs, *cpus)
		}
		return writePlan(out, Plan(*seed, *jobs, *cpus))
	case "csv":
		planFile := fs.String("plan", "", "the workload from slurmref plan")
		slurmFile := fs.String("slurm", "", "what Slurm did: job submit start end state")
		logFile := fs.String("log", "", "slurmctld's log: the times to the millisecond")
		t0 := fs.Int64("t0", 0, "epoch second of time 0 (the first submission)")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		plan, ran, err := load(*planFile, *slurmFile, *logFile, *t0)
		if err != nil {
			return err
		}
		return WriteCSV(out, plan, ran)
	case "passes":
		logFile := fs.String("log", "", "slurmctld's log, with DebugFlags=Backfill,TraceJobs and SlurmctldDebug=debug")
		t0 := fs.Int64("t0", 0, "epoch second of time 0")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		if *logFile == "" {
			return errors.New("passes: -log is required")
		}
		lt, err := ReadLog(*logFile, 0)
		if err != nil {
			return err
		}
		if err := WritePasses(out, lt, float64(*t0)); err != nil {
			return fmt.Errorf("%s: %v", *logFile, err)
		}
		return nil
	case "compare":
		planFile := fs.String("plan", "", "the workload from slurmref plan")
		slurmFile := fs.String("slurm", "", "what Slurm did: job submit start end state")
		replayFile := fs.String("replay", "", "jobs.csv of bench replay --format csv")
		logFile := fs.String("log", "", "slurmctld's log: the times to the millisecond")
		t0 := fs.Int64("t0", 0, "epoch second of time 0 (the first submission)")
		minTau := fs.Float64("tau", 0.98, "Kendall's tau-b of the start times at least")
		within := fs.Float64("within", 3, "seconds by which a start may differ")
		minFrac := fs.Float64("frac", 0.95, "fraction of the starts within -within at least")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		plan, ran, err := load(*planFile, *slurmFile, *logFile, *t0)
		if err != nil {
			return err
		}
		rep, err := readReplay(*replayFile, len(plan))
		if err != nil {
			return err
		}
		a := Compare(ran, rep, *within)
		a.Print(out, ran, rep)
		var fails []string
		if !(a.Tau >= *minTau) {
			fails = append(fails, fmt.Sprintf("Kendall tau-b %.4f < %g", a.Tau, *minTau))
		}
		if !(a.Within >= *minFrac) {
			fails = append(fails, fmt.Sprintf("%.1f%% of starts within %g s < %g%%", 100*a.Within, *within, 100**minFrac))
		}
		if len(fails) > 0 {
			return fmt.Errorf("the replay disagrees with Slurm: %s", join(fails))
		}
		fmt.Fprintf(out, "agree: tau-b >= %g and >= %g%% of starts within %g s\n", *minTau, 100**minFrac, *within)
		return nil
	default:
		return fmt.Errorf("%q: %s", args[0], usage)
	}
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%s: %v", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// load reads the plan and Slurm's record of it, and checks that they
// describe the same jobs; with a log, the times are the log's.
func load(planFile, slurmFile, logFile string, t0 int64) ([]Job, []Ran, error) {
	if planFile == "" || slurmFile == "" {
		return nil, nil, errors.New("-plan and -slurm are required")
	}
	plan, err := readPlan(planFile)
	if err != nil {
		return nil, nil, err
	}
	ran, err := readSlurm(slurmFile, t0, len(plan))
	if err != nil || logFile == "" {
		return plan, ran, err
	}
	lt, err := ReadLog(logFile, len(plan))
	if err != nil {
		return nil, nil, err
	}
	if ran, err = Refine(ran, lt, float64(t0)); err != nil {
		return nil, nil, fmt.Errorf("%s against %s: %v", logFile, slurmFile, err)
	}
	return plan, ran, nil
}
