// Package exec runs a scheduling policy written in any language as a child
// process that speaks a line-delimited JSON protocol over its stdin and
// stdout (docs/exec-protocol.md). The engine and the child move in
// lockstep: at each decision point the engine sends the events since the
// last one and the node that asks; the child may query the views and
// answers with its actions. Nothing depends on timing: the timeout only
// ends a run whose child has stopped answering.
package exec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"sojourn/internal/shellwords"
	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// Name is the policy's name in the registry and on the command line.
const Name = "exec"

var options = []policy.Option{
	{Name: "command", Default: "",
		Usage: "the policy's command line, e.g. 'python3 clients/python/examples/fifo.py' (words split at blanks; quotes group); --exec is its shorthand"},
	{Name: "args", Default: "",
		Usage: "options passed to the policy in the handshake: key=value pairs separated by blanks or commas; the policy states which it takes"},
	{Name: "timeout", Default: "30",
		Usage: "seconds of wall time to wait for each line from the policy before the run fails"},
	{Name: "name", Default: "", OmitDefault: true,
		Usage: "the name its results carry: letters, digits, '.', '_' or '-', not a built-in policy's (--exec NAME=COMMAND sets it); empty: the name the policy declares when it starts, with exec- before it if a built-in policy has it"},
}

// Policy describes the policy to the registry.
var Policy = policy.Policy{
	Name:      Name,
	Summary:   "a policy in any language: a child process speaking the line-delimited JSON protocol of docs/exec-protocol.md",
	Options:   options,
	MayStarve: true, // whatever the child does
	New:       func(s *policy.Settings) (replay.Scheduler, error) { return New(s) },
}

// Exec is a policy run as a child process. It starts the child in Start
// and ends it after the last job finishes, or in Close, which a caller
// that builds it must call once the run is over (run.Replay does).
type Exec struct {
	argv    []string
	args    map[string]string
	timeout time.Duration
	// Stderr receives the child's standard error (nil: os.Stderr).
	Stderr io.Writer

	// label is the name the results carry: the name option, or else
	// the child's own, from the handshake (see Name).
	label    string
	explicit bool // label is the name option
	taken    func(name string) bool

	c        *child
	name     string // the child's name for itself, from the handshake
	preempts bool
	skipIdle bool
	busy     bool // the child's last wish for busy heartbeats
	events   []byte
	nevents  int
	left     int // unfinished jobs
	now      replay.Time
	out      []byte
	msg      reply
	err      error
	// declined counts consecutive decisions that launched nothing while
	// slots were free, tasks waited and nothing else happened; since is
	// when the streak began, on the wall clock.
	declined int
	since    time.Time
	sinceRun replay.Time
	nodes    int
	jobs     int
}

// Limits on a child that never ends the run by itself.
const (
	// minQueries is the fewest queries one decision may make; a decision
	// may make four per job and node, enough to ask after every task
	// kind of every job and about every node.
	minQueries = 10_000
	// minStall is the fewest declined decisions the stall detector
	// tolerates (10 rounds of heartbeats, if the cluster is larger): a
	// delay-scheduling policy declines a few rounds while it waits for
	// locality, but a child that declines every offer of an unchanging
	// cluster would otherwise run a simulated day of round trips before
	// the engine's no-progress detector fires.
	minStall = 100_000
)

var (
	_ replay.Scheduler = (*Exec)(nil)
	_ replay.Starter   = (*Exec)(nil)
	_ replay.Preempter = (*Exec)(nil)
	_ io.Closer        = (*Exec)(nil)
)

// New builds the policy from its settings. It checks them but starts
// nothing: the child starts with the run (Start).
func New(s *policy.Settings) (*Exec, error) {
	command := s.String("command")
	args := s.String("args")
	timeout := s.Float("timeout")
	if err := s.Err(); err != nil {
		return nil, err
	}
	if !(timeout > 0) {
		return nil, fmt.Errorf("exec.timeout: %v, want seconds > 0", timeout)
	}
	argv, err := shellwords.Split(command)
	if err != nil {
		return nil, fmt.Errorf("exec.command: %w", err)
	}
	kv, err := parseArgs(args)
	if err != nil {
		return nil, fmt.Errorf("exec.args: %w", err)
	}
	x := &Exec{argv: argv, args: kv, timeout: time.Duration(timeout * float64(time.Second))}
	if name := s.String("name"); name != "" {
		if err := CheckName(name); err != nil {
			return nil, fmt.Errorf("exec.name: %w", err)
		}
		if name == Name {
			return nil, fmt.Errorf("exec.name: %q is the built-in policy's name; choose another", name)
		}
		x.label, x.explicit = name, true
	}
	return x, nil
}

// parseArgs reads key=value pairs separated by blanks or commas.
func parseArgs(s string) (map[string]string, error) {
	kv := map[string]string{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", f)
		}
		kv[k] = v
	}
	return kv, nil
}

// Name implements replay.Scheduler: the name the policy's results carry.
// It is the name option if given; otherwise, once the child has started,
// the name it declares in its ready message, with exec- before it if
// another policy has that name (Reserve), and "exec" if it declares none.
// Before the child starts, a policy without the name option is "exec".
func (x *Exec) Name() string {
	if x.label == "" {
		return Name
	}
	return x.label
}

// maxName is the longest name a policy's results may carry.
const maxName = 64

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckName checks that name can label results, and so name a directory
// and a column of a table: letters, digits, '.', '_' and '-', starting
// with a letter or digit, at most 64 bytes.
func CheckName(name string) error {
	if !nameRE.MatchString(name) || len(name) > maxName {
		return fmt.Errorf("%q is not a name: want letters, digits, '.', '_' or '-', starting with a letter or digit, at most %d", name, maxName)
	}
	return nil
}

// Reserve tells the policy which names other policies have (the
// registry's built-ins): the name option may not be one of them, and a
// declared name that is one gets exec- before it, so that the results of
// an external policy are never taken for a built-in's.
func (x *Exec) Reserve(taken func(name string) bool) error {
	x.taken = taken
	if x.explicit && taken(x.label) {
		return fmt.Errorf("exec.name: %q is a built-in policy's name; choose another", x.label)
	}
	return nil
}

// declaredLabel is the name the results carry for a child that declares
// name and is not named by the name option.
func (x *Exec) declaredLabel(name string) (string, error) {
	switch {
	case name == "":
		return Name, nil
	case CheckName(name) != nil:
		return "", fmt.Errorf("the policy declares the name %q, which cannot label results (want letters, digits, '.', '_' or '-', at most %d); "+
			"change it, or name the policy with --exec NAME=COMMAND (exec.name)", name, maxName)
	case name == Name || (x.taken != nil && x.taken(name)):
		return Name + "-" + name, nil
	}
	return name, nil
}

// Start implements replay.Starter: it starts the child and shakes hands.
func (x *Exec) Start(v *replay.View) error {
	if len(x.argv) == 0 {
		return errors.New("no command: give --exec 'COMMAND' (or exec.command)")
	}
	stderr := x.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	c, err := startChild(x.argv, stderr, x.timeout)
	if err != nil {
		return fmt.Errorf("%s: %w", x.who(), err)
	}
	x.c = c
	x.left = v.Jobs()
	x.nodes, x.jobs = v.Nodes(), v.Jobs()
	if err := x.handshake(v); err != nil {
		return x.fail(err)
	}
	return nil
}

// who names the child in errors: its command line and, once known, its
// own name.
func (x *Exec) who() string {
	s := fmt.Sprintf("command %q", strings.Join(x.argv, " "))
	if x.name != "" {
		s += " (" + x.name + ")"
	}
	return s
}

// fail records the run's first error, naming the child, and ends the
// child at once.
func (x *Exec) fail(err error) error {
	if x.err == nil {
		x.err = fmt.Errorf("%s: %w", x.who(), err)
	}
	if x.c != nil {
		x.c.kill()
	}
	return x.err
}

// badLine is the error for a line the protocol does not allow.
func badLine(line []byte, format string, args ...any) error {
	return fmt.Errorf("%s: line %.200q", fmt.Sprintf(format, args...), line)
}

func (x *Exec) handshake(v *replay.View) error {
	cfg := v.Config()
	b := append(x.out[:0], `{"type":"hello"`...)
	b = appendKV(b, "protocol", Version)
	b = append(b, `,"options":{`...)
	keys := make([]string, 0, len(x.args))
	for k := range x.args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendQuoted(b, k)
		b = append(b, ':')
		b = appendQuoted(b, x.args[k])
	}
	b = append(b, `},"cluster":{"nodes":`...)
	b = appendIntRaw(b, v.Nodes())
	b = appendKV(b, "nodes_per_rack", int64(cfg.NodesPerRack))
	b = appendKV(b, "map_slots", int64(cfg.MapSlots))
	b = appendKV(b, "reduce_slots", int64(cfg.ReduceSlots))
	b = appendKV(b, "heartbeat", int64(v.HeartbeatInterval()))
	b = appendKV(b, "max_suspended", int64(cfg.MaxSuspendedPerNode))
	b = appendFloat(b, "slow_start", max(cfg.SlowStart, 0)) // negative means 0
	b = appendFloat(b, "shuffle_bandwidth", cfg.ShuffleBandwidth)
	b = append(b, '}')
	b = appendKV(b, "jobs", int64(v.Jobs()))
	x.out = append(b, '}', '\n')
	if err := x.c.send(x.out); err != nil {
		return fmt.Errorf("hello: %w", err)
	}
	line, err := x.c.readLine()
	if err != nil {
		return fmt.Errorf("waiting for ready: %w", err)
	}
	m := &x.msg
	if err := m.parse(line); err != nil {
		return badLine(line, "malformed ready message (%v)", err)
	}
	x.name = m.Name
	switch {
	case m.Type != "ready":
		return badLine(line, `want the "ready" message`)
	case m.Protocol != Version:
		return badLine(line, "the policy speaks protocol %d, this engine %d", m.Protocol, Version)
	}
	if !x.explicit {
		label, err := x.declaredLabel(m.Name)
		if err != nil {
			return err
		}
		x.label = label
	}
	for _, k := range keys {
		if !contains(m.Options, k) {
			return fmt.Errorf("takes no option %q (its options: %s)", k, strings.Join(m.Options, ", "))
		}
	}
	x.preempts, x.skipIdle, x.busy = m.Preempts, m.SkipIdle, m.Preempts
	return nil
}

func contains(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

// OnEvent implements replay.Scheduler: the event joins the batch sent
// with the next message. After the last job finishes the child is told
// the run is over and ended.
func (x *Exec) OnEvent(ev replay.Event, v *replay.View) {
	if x.err != nil || x.c == nil {
		return
	}
	if x.nevents > 0 {
		x.events = append(x.events, ',')
	}
	x.events = appendEvent(x.events, ev, v)
	x.nevents++
	x.now = ev.Time
	if ev.Kind == replay.JobFinished {
		if x.left--; x.left == 0 {
			x.end(v.Now(), "")
		}
	}
}

// takeEvents appends the batched events as "events":[…] and empties the
// batch.
func (x *Exec) takeEvents(b []byte) []byte {
	b = append(b, `,"events":[`...)
	b = append(b, x.events...)
	x.events, x.nevents = x.events[:0], 0
	return append(b, ']')
}

// end sends the "end" message with the last events, closes the child's
// stdin and waits for it to exit.
func (x *Exec) end(now replay.Time, reason string) {
	if x.c == nil || x.c.done {
		return
	}
	b := append(x.out[:0], `{"type":"end"`...)
	b = appendKV(b, "time", int64(now))
	b = x.takeEvents(b)
	if reason != "" {
		b = appendString(b, "error", reason)
	}
	x.out = append(b, '}', '\n')
	x.c.send(x.out) // a child that already left is told nothing
	x.c.stop(x.timeout)
	if x.c.exitErr != nil && x.err == nil {
		x.err = fmt.Errorf("%s: after the end of the run: %v", x.who(), x.c.exitErr)
	}
}

// Close ends the child if it still runs and reaps it. It returns the
// run's first error on the child's side, if any (an exit status that is
// not a success after the "end" message among them).
func (x *Exec) Close() error {
	if x.c != nil && !x.c.done {
		if x.err != nil {
			x.c.kill()
		} else {
			x.end(x.now, "the run ended before its last job finished")
		}
	}
	return x.err
}

// WantsBusyHeartbeats implements replay.Preempter: a policy that said in
// the handshake that it preempts gets busy heartbeats until it says, at
// the end of a decision, that it wants none ("busy": false), and again
// once it says it wants them.
func (x *Exec) WantsBusyHeartbeats(*replay.View) bool {
	return x.preempts && x.busy && x.err == nil && x.c != nil && !x.c.done
}

// emptyDecision is a decision with no action, as clients usually write it.
const emptyDecision = `{"actions":[]}`

// idle reports that a heartbeat offers nothing to do: no kind has both a
// free slot and a task waiting, and nothing is suspended on the node.
func idle(hb *replay.Heartbeat) bool {
	for k := replay.Map; k <= replay.Reduce; k++ {
		if hb.Free(k) > 0 && hb.Demand(k) > 0 {
			return false
		}
	}
	return len(hb.SuspendedHere()) == 0
}

// OnHeartbeat implements replay.Scheduler: one decision, in lockstep.
func (x *Exec) OnHeartbeat(hb *replay.Heartbeat) error {
	if x.err != nil {
		return x.err
	}
	switch {
	case x.c == nil:
		return x.fail(errors.New("the policy's process is not running"))
	case x.c.done:
		return nil // the run is over: its last job has finished
	}
	if x.skipIdle && idle(hb) {
		return nil
	}
	n := hb.Node()
	x.now = hb.Now()
	if x.c.pending() {
		return x.fail(errors.New("sent a line after its decision ended; a decision ends with the first line that has no query, and nothing may follow it"))
	}
	quiet := x.nevents == 0 && !idle(hb)
	b := append(x.out[:0], `{"type":"heartbeat"`...)
	b = appendKV(b, "time", int64(hb.Now()))
	b = appendKV(b, "node", int64(n))
	b = appendPair(b, "free", hb.Free(replay.Map), hb.Free(replay.Reduce))
	b = appendPair(b, "demand", hb.Demand(replay.Map), hb.Demand(replay.Reduce))
	if s := hb.SuspendedHere(); len(s) > 0 {
		b = appendTasks(b, "suspended", s)
	}
	b = x.takeEvents(b)
	x.out = append(b, '}', '\n')
	if err := x.c.send(x.out); err != nil {
		return x.fail(err)
	}
	launched := false
	maxQueries := max(minQueries, 4*(x.jobs+x.nodes))
	for queries := 0; ; queries++ {
		if queries > maxQueries {
			return x.fail(fmt.Errorf("more than %d queries in one decision; a decision ends with a line without a query", maxQueries))
		}
		line, err := x.c.readLine()
		if err != nil {
			return x.fail(err)
		}
		if string(line) == emptyDecision {
			return x.decided(hb, quiet && !launched)
		}
		m := &x.msg
		if err := m.parse(line); err != nil {
			return x.fail(badLine(line, "malformed message (%v)", err))
		}
		for _, a := range m.Actions {
			if err := x.apply(hb, a, line); err != nil {
				return err
			}
			launched = launched || a.Op == "launch" || a.Op == "launch_best" || a.Op == "resume"
		}
		if m.Query == "" {
			if m.Busy != nil {
				x.busy = *m.Busy
			}
			return x.decided(hb, quiet && !launched)
		}
		b, err := x.answer(x.out[:0], hb, m)
		if err != nil {
			return x.fail(badLine(line, "%v", err))
		}
		x.out = append(b, '\n')
		if err := x.c.send(x.out); err != nil {
			return x.fail(err)
		}
	}
}

// decided ends a decision: a line already buffered behind its last one is
// a protocol error, and a decision that declined an offer of an
// unchanging cluster counts towards the stall detector.
func (x *Exec) decided(hb *replay.Heartbeat, declined bool) error {
	if x.c.r.Buffered() > 0 {
		buf, _ := x.c.r.Peek(x.c.r.Buffered())
		return x.fail(badLine(buf, "a line after its decision ended; a decision ends with the first line that has no query"))
	}
	if !declined {
		x.declined = 0
		return nil
	}
	if x.declined == 0 {
		x.since, x.sinceRun = time.Now(), hb.Now()
	}
	x.declined++
	limit := max(minStall, 10*x.nodes)
	if x.declined >= limit || (x.declined%4096 == 0 && time.Since(x.since) > x.timeout) {
		return x.fail(fmt.Errorf("no progress: %d decisions in a row (%.1f s of wall clock, since %v of the run) launched nothing while slots were free, tasks waited and nothing else happened",
			x.declined, time.Since(x.since).Seconds(), x.sinceRun))
	}
	return nil
}

// apply validates and applies one action. An action the engine refuses
// ends the run with the engine's own error, which names the task and why.
func (x *Exec) apply(hb *replay.Heartbeat, a action, line []byte) error {
	k, ok := parseKind(a.Kind)
	if !ok {
		return x.fail(badLine(line, "action %q: kind %q is not map or reduce", a.Op, a.Kind))
	}
	t := replay.TaskRef{Job: a.Job, Kind: k, Index: a.Task}
	var err error
	if a.Op == "launch_best" {
		if a.Job < 0 || int(a.Job) >= hb.Jobs() || !hb.Job(a.Job).Arrived() {
			return x.fail(badLine(line, "launch_best: job %d has not arrived", a.Job))
		}
		worst, ok := parseLocality(a.MaxLocality)
		if !ok {
			return x.fail(badLine(line, "launch_best: max_locality %q is not node-local, rack-local or off-rack", a.MaxLocality))
		}
		if k == replay.Map {
			t.Index, _, ok = hb.PendingMap(a.Job, hb.Node(), worst)
		} else {
			t.Index, ok = hb.PendingReduce(a.Job)
		}
		if !ok {
			return x.fail(badLine(line, "launch_best: job %d has no %s to launch here (at %s or better)", a.Job, k, worst))
		}
		a.Op = "launch"
	}
	switch a.Op {
	case "launch":
		err = hb.Launch(t)
	case "kill":
		err = hb.Kill(t)
	case "suspend":
		err = hb.Suspend(t)
	case "resume":
		err = hb.Resume(t)
	default:
		return x.fail(badLine(line, "unknown action %q (want launch, launch_best, kill, suspend or resume)", a.Op))
	}
	if err != nil {
		x.fail(err)
		return err
	}
	return nil
}
