package replaytest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sojourn/replay"
	"sojourn/traces"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected outputs of scripted tests (testdata/*.txt) with what the code does")

// Rewriting reports whether the test binary runs with -rewrite: scripted
// tests then rewrite their expected outputs instead of comparing, and
// other generated expectations may do the same.
func Rewriting() bool { return *rewrite }

// RunScripts runs every scripted scenario file matching pattern (usually
// "testdata/*.txt") as a subtest, building policies by name from
// policies. With -rewrite it rewrites each file's expected outputs with
// the outputs it got; commit only changes you understand.
//
// A file is a sequence of commands, one a line; '#' starts a comment
// line. The commands:
//
//	cluster nodes=1 map-slots=1 reduce-slots=1 heartbeat=1
//	    starts a scenario: no jobs, no options, this cluster. Keys:
//	    nodes, nodes-per-rack, map-slots, reduce-slots, replication,
//	    heartbeat (s), oob (out-of-band heartbeats, true/false),
//	    slow-start (a fraction; negative means 0), max-suspended,
//	    shuffle-bandwidth and disk-bandwidth (B/s), seed. Omitted keys
//	    take replay.Config's defaults.
//	job submit=0 pool=a maps=2x30 reduces=1x10,5
//	    adds a job. Tasks are lists of durations in seconds, "NxD" for N
//	    tasks of D. Other keys: name, priority (VERY_LOW … VERY_HIGH),
//	    shuffle (bytes per reduce), mem (bytes per task), input (bytes
//	    the maps read; default one block per map, 0 for no input data),
//	    rigid=true (a gang of maps).
//	options preemption=eager oracle=both
//	    sets the policy options of the runs that follow (replacing earlier
//	    options).
//	run policy=hfsp [log=finish] [option=value …]
//	----
//	<expected output>
//	    replays the jobs so far under the named policy, with the options
//	    plus those given here, every invariant check on. The output is one
//	    line per job (finish time, sojourn, kills, suspensions) then, unless
//	    log=finish, the policy's actions in order (see Action.String). The
//	    expected output ends at a blank line or the end of the file.
func RunScripts(t *testing.T, pattern string, policies map[string]Builder) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scripted tests match %s", pattern)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runScript(t, f, policies) })
	}
}

// scenario is the state a script builds up.
type scenario struct {
	cfg     replay.Config
	jobs    []*JobBuilder
	options map[string]string
}

func runScript(t *testing.T, path string, policies map[string]Builder) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	var out []string // the file as rewritten
	sc := &scenario{options: map[string]string{}}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		out = append(out, line)
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, i+1)
		cmd, args, err := parseCommand(text)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		hasOutput := i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "----"
		if (cmd == "run") != hasOutput {
			t.Fatalf("%s: %s: only run, and every run, is followed by ---- and its expected output", where, cmd)
		}
		if !hasOutput {
			if err := sc.apply(cmd, args); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			continue
		}
		got, err := sc.run(t, args, policies)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		i += 2 // the run line and ----
		start := i
		for i < len(lines) && strings.TrimSpace(lines[i]) != "" {
			i++
		}
		want := strings.Join(lines[start:i], "\n")
		out = append(out, "----", got)
		if i < len(lines) {
			out = append(out, "")
		}
		if !*rewrite && got != want {
			t.Errorf("%s: run %s: output differs (go test -rewrite rewrites it)\ngot:\n%s\nwant:\n%s", where, text, got, want)
		}
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type arg struct{ key, val string }

// parseCommand splits "cmd k=v k=v" into the command and its arguments.
func parseCommand(text string) (string, []arg, error) {
	fields := strings.Fields(text)
	var args []arg
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("argument %q is not key=value", f)
		}
		args = append(args, arg{k, v})
	}
	return fields[0], args, nil
}

func (sc *scenario) apply(cmd string, args []arg) error {
	switch cmd {
	case "cluster":
		sc.cfg, sc.jobs, sc.options = replay.Config{}, nil, map[string]string{}
		for _, a := range args {
			if err := setCluster(&sc.cfg, a); err != nil {
				return err
			}
		}
	case "job":
		b, err := parseJob(args)
		if err != nil {
			return err
		}
		sc.jobs = append(sc.jobs, b)
	case "options":
		sc.options = map[string]string{}
		for _, a := range args {
			sc.options[a.key] = a.val
		}
	default:
		return fmt.Errorf("unknown command %q (want cluster, job, options or run)", cmd)
	}
	return nil
}

func setCluster(c *replay.Config, a arg) error {
	var err error
	ints := map[string]*int{"nodes": &c.Nodes, "nodes-per-rack": &c.NodesPerRack, "map-slots": &c.MapSlots,
		"reduce-slots": &c.ReduceSlots, "replication": &c.Replication, "max-suspended": &c.MaxSuspendedPerNode}
	floats := map[string]*float64{"heartbeat": &c.Heartbeat, "slow-start": &c.SlowStart,
		"shuffle-bandwidth": &c.ShuffleBandwidth, "disk-bandwidth": &c.DiskBandwidth}
	switch {
	case ints[a.key] != nil:
		*ints[a.key], err = strconv.Atoi(a.val)
	case floats[a.key] != nil:
		*floats[a.key], err = strconv.ParseFloat(a.val, 64)
	case a.key == "oob":
		c.OutOfBandHeartbeat, err = strconv.ParseBool(a.val)
	case a.key == "seed":
		c.Seed, err = strconv.ParseUint(a.val, 10, 64)
	default:
		return fmt.Errorf("cluster has no key %q", a.key)
	}
	if err != nil {
		return fmt.Errorf("cluster %s: %w", a.key, err)
	}
	return nil
}

func parseJob(args []arg) (*JobBuilder, error) {
	if len(args) == 0 || args[0].key != "submit" {
		return nil, fmt.Errorf("job: submit=SECONDS comes first")
	}
	submit, err := strconv.ParseFloat(args[0].val, 64)
	if err != nil {
		return nil, fmt.Errorf("job submit: %w", err)
	}
	b := Job(submit)
	for _, a := range args[1:] {
		switch a.key {
		case "pool":
			b.Pool(a.val)
		case "name":
			b.Name(a.val)
		case "priority":
			var p traces.Priority
			if p, err = traces.ParsePriority(a.val); err == nil {
				b.Priority(p)
			}
		case "maps", "reduces":
			var d []float64
			if d, err = parseDurations(a.val); err == nil {
				if a.key == "maps" {
					b.MapDurations(d...)
				} else {
					b.ReduceDurations(d...)
				}
			}
		case "rigid":
			if a.val != "true" {
				err = fmt.Errorf("%q; want rigid=true", a.val)
			} else {
				b.Rigid()
			}
		case "input":
			var n float64 // accepts 1e9
			if n, err = strconv.ParseFloat(a.val, 64); err == nil {
				b.Input(int64(n))
			}
		case "shuffle", "mem":
			var n float64 // accepts 1e9
			if n, err = strconv.ParseFloat(a.val, 64); err == nil {
				if a.key == "shuffle" {
					b.Shuffle(int64(n))
				} else {
					b.Memory(int64(n))
				}
			}
		default:
			return nil, fmt.Errorf("job has no key %q", a.key)
		}
		if err != nil {
			return nil, fmt.Errorf("job %s: %w", a.key, err)
		}
	}
	return b, nil
}

// parseDurations reads "2x30,10,5": two tasks of 30 s, one of 10, one of 5.
func parseDurations(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		n, d := 1, part
		if c, rest, ok := strings.Cut(part, "x"); ok {
			var err error
			if n, err = strconv.Atoi(c); err != nil || n < 0 {
				return nil, fmt.Errorf("%q: count %q", part, c)
			}
			d = rest
		}
		v, err := strconv.ParseFloat(d, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: duration %q", part, d)
		}
		out = append(out, Same(n, v)...)
	}
	return out, nil
}

func (sc *scenario) run(t *testing.T, args []arg, policies map[string]Builder) (string, error) {
	opts := map[string]string{}
	for k, v := range sc.options {
		opts[k] = v
	}
	name, actions := "", true
	for _, a := range args {
		switch a.key {
		case "policy":
			name = a.val
		case "log":
			if a.val != "actions" && a.val != "finish" {
				return "", fmt.Errorf("run log=%s: want actions or finish", a.val)
			}
			actions = a.val == "actions"
		default:
			opts[a.key] = a.val
		}
	}
	b, ok := policies[name]
	if !ok {
		names := make([]string, 0, len(policies))
		for n := range policies {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", fmt.Errorf("run: policy %q: want policy= one of %s", name, strings.Join(names, ", "))
	}
	if len(sc.jobs) == 0 {
		return "", fmt.Errorf("run: no jobs")
	}
	s, err := b(opts)
	if err != nil {
		return "", err
	}
	s, log := Record(s)
	r := Run(t, Trace(t, sc.jobs...), s, sc.cfg)
	var lines []string
	for i := range r.Jobs {
		j := &r.Jobs[i]
		lines = append(lines, fmt.Sprintf("job %d finish %g sojourn %g kills %d suspensions %d",
			i, j.Finish.Sec(), j.Sojourn().Sec(), j.Kills, j.Suspensions))
	}
	if actions {
		for _, a := range log.Actions {
			lines = append(lines, a.String())
		}
	}
	return strings.Join(lines, "\n"), nil
}
