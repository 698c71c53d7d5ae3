package exec

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"sojourn/replay"
	"sojourn/replay/replaytest"
	"sojourn/traces"
)

// build builds the policy that runs this test binary as a client in mode
// (client_test.go), its stderr into a buffer.
func build(t testing.TB, mode string, opts map[string]string) (*Exec, *bytes.Buffer) {
	t.Helper()
	t.Setenv(clientEnv, mode)
	o := map[string]string{"command": fmt.Sprintf("%q", os.Args[0])}
	for k, v := range opts {
		o[k] = v
	}
	s, err := Policy.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	x := s.(*Exec)
	var stderr bytes.Buffer
	x.Stderr = &stderr
	return x, &stderr
}

func small(t testing.TB) *traces.Trace {
	return replaytest.Trace(t,
		replaytest.Job(0).Maps(3, 10).Reduces(1, 5),
		replaytest.Job(4).Maps(2, 5),
		replaytest.Job(9).Maps(1, 20).Reduces(2, 3))
}

var cluster = replay.Config{Nodes: 2, MapSlots: 1, ReduceSlots: 1, Seed: 1}

// checkReaped fails unless the child has exited and was waited for.
func checkReaped(t *testing.T, x *Exec) {
	t.Helper()
	if x.c == nil {
		return
	}
	if !x.c.done || x.c.cmd.ProcessState == nil {
		t.Errorf("the child is not reaped")
	}
}

// TestGoClient replays a small trace under the Go test client, which
// launches what the engine's pickers offer, and checks that every job
// finishes and the child exits cleanly.
func TestGoClient(t *testing.T) {
	x, stderr := build(t, "ok", map[string]string{"args": "greeting=hello"})
	r, err := replay.Run(small(t), x, cluster)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	checkReaped(t, x)
	for _, j := range r.Jobs {
		if j.Finish <= j.Submit {
			t.Errorf("job %d: finish %v, submit %v", j.ID, j.Finish, j.Submit)
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr)
	}
}

// TestBusyHeartbeats: nodes with no free slot heartbeat only for a child
// that said it preempts, and only while it wants them; the choice changes
// the heartbeats, not what the same decisions do.
func TestBusyHeartbeats(t *testing.T) {
	run := func(mode string) *replay.Result {
		x, _ := build(t, mode, nil)
		r, err := replay.Run(small(t), x, cluster)
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		if got, want := x.WantsBusyHeartbeats(nil), false; got != want {
			t.Errorf("%s: WantsBusyHeartbeats after the run %v", mode, got)
		}
		return r
	}
	plain, busy, off := run("ok"), run("preempt"), run("preempt-off")
	t.Logf("heartbeats: %d plain, %d with busy heartbeats, %d once turned off", plain.Stats.Heartbeats, busy.Stats.Heartbeats, off.Stats.Heartbeats)
	if busy.Stats.Heartbeats <= plain.Stats.Heartbeats {
		t.Errorf("a preempting child got %d heartbeats, a plain one %d", busy.Stats.Heartbeats, plain.Stats.Heartbeats)
	}
	if off.Stats.Heartbeats >= busy.Stats.Heartbeats {
		t.Errorf("busy heartbeats turned off: %d heartbeats, on: %d", off.Stats.Heartbeats, busy.Stats.Heartbeats)
	}
	for _, r := range []*replay.Result{busy, off} {
		if !reflect.DeepEqual(r.Jobs, plain.Jobs) {
			t.Errorf("the same decisions gave other results")
		}
	}
}

// TestErrors: each way a child can break the protocol ends the run with
// one line naming the policy (by the name it declares, once it has), the
// simulated time and the offence; the
// child's stderr is passed through; the child is reaped; no goroutine is
// left behind.
func TestErrors(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, c := range []struct {
		mode    string
		opts    map[string]string
		want    []string
		stderr  string
		atClose bool // the run succeeds and Close reports the error
	}{
		{mode: "malformed", want: []string{"policy go-malformed at 0.000000s", "malformed message", `{\"actions\":[{\"op\":\"launch\",`}},
		{mode: "unknown-action", want: []string{"policy go-unknown-action at 0.000000s", `unknown action "teleport"`, `line "{\"actions\"`}},
		{mode: "invalid-launch", want: []string{"invalid action", "policy go-invalid-launch at 0.000000s", "job 0 map 99: no such task"}},
		{mode: "unknown-query", want: []string{"policy go-unknown-query at 0.000000s", `unknown query "future"`}},
		{mode: "query-no-job", want: []string{"policy go-query-no-job at 0.000000s", `query "job": job 99 has not arrived`}},
		{mode: "launch-best-none", want: []string{"policy go-launch-best-none at 0.000000s", "launch_best: job 0 has no reduce to launch here"}},
		{mode: "exit", want: []string{"policy go-exit at 0.000000s", "the policy's process exited (exit status 1)"}, stderr: "client: exiting in the middle of the run"},
		{mode: "silent", opts: map[string]string{"timeout": "0.3"}, want: []string{"policy go-silent at 0.000000s", "no answer within 300ms"}},
		{mode: "silent-ready", opts: map[string]string{"timeout": "0.3"}, want: []string{"policy exec at 0.000000s", "waiting for ready: no answer within 300ms"}},
		{mode: "exit-ready", want: []string{"waiting for ready", "exited (exit status 2)"}, stderr: "client: giving up"},
		{mode: "version", want: []string{"the policy speaks protocol 99, this engine 1", `(future)`}},
		{mode: "ok", opts: map[string]string{"args": "colour=red"}, want: []string{`takes no option "colour" (its options: greeting)`}},
		{mode: "fail-at-end", atClose: true, want: []string{"after the end of the run: exit status 1"}},
		{mode: "decline", want: []string{"policy go-decline", "no progress: 100000 decisions in a row", "launched nothing while slots were free"}},
		{mode: "decline-slow", opts: map[string]string{"timeout": "0.5"}, want: []string{"policy go-decline-slow", "no progress:", "decisions in a row"}},
		{mode: "query-forever", want: []string{"policy go-query-forever at 0.000000s", "more than 10000 queries in one decision"}},
		{mode: "extra-line", want: []string{"policy go-extra-line at 0.000000s", "a line after its decision ended", `line "{\"actions\":[]}`}},
		// Whether the flood is buffered when its decision ends or found at
		// the next heartbeat depends on timing; both say so.
		{mode: "flood", want: []string{"policy go-flood at ", "a line after its decision ended"}},
		{mode: "orphan", opts: map[string]string{"timeout": "20"}, want: []string{"policy go-orphan at 0.000000s", "the policy's process exited (exit status 4)"}, stderr: "client: leaving a grandchild behind"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			x, stderr := build(t, c.mode, c.opts)
			_, err := replay.Run(small(t), x, cluster)
			cerr := x.Close()
			checkReaped(t, x)
			if c.atClose {
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				err = cerr
			}
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			t.Log(msg)
			if strings.Contains(msg, "\n") {
				t.Errorf("error of more than one line: %q", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			if !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("stderr %q, want %q", stderr, c.stderr)
			}
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left behind", n-before)
	}
}

func TestNoCommand(t *testing.T) {
	s, err := Policy.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = replay.Run(small(t), s, cluster)
	if err == nil || !strings.Contains(err.Error(), "no command: give --exec") {
		t.Errorf("error %v", err)
	}
	for _, o := range []map[string]string{{"timeout": "0"}, {"command": `"unclosed`}, {"args": "novalue"}} {
		if _, err := Policy.Build(o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// BenchmarkDecision measures one decision through the pipes: the engine
// writes a heartbeat with two events, the child (this binary) answers, the
// engine reads the answer and decodes it. The child answers with no action
// (empty), which the engine recognises without decoding, or with one
// launch (launch), decoded. Run on one core:
// taskset -c 0 go test -run NONE -bench Decision -cpu 1 ./schedulers/exec
func BenchmarkDecision(b *testing.B) {
	b.Run("empty", func(b *testing.B) { benchDecision(b, "bench") })
	b.Run("launch", func(b *testing.B) { benchDecision(b, "bench-launch") })
}

func benchDecision(b *testing.B, mode string) {
	b.Setenv(clientEnv, mode)
	c, err := startChild([]string{os.Args[0]}, os.Stderr, 30*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer c.kill()
	if err := c.send([]byte(`{"type":"hello","protocol":1}` + "\n")); err != nil {
		b.Fatal(err)
	}
	if _, err := c.readLine(); err != nil {
		b.Fatal(err)
	}
	var r reply
	hb := []byte(`{"type":"heartbeat","time":123456789,"node":17,"free":[1,0],"demand":[40,3],"events":[` +
		`{"event":"task-finished","time":123400000,"job":12,"kind":"map","task":3,"node":17},` +
		`{"event":"task-started","time":123456789,"job":12,"kind":"map","task":4,"node":9}]}` + "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := c.send(hb); err != nil {
			b.Fatal(err)
		}
		line, err := c.readLine()
		if err != nil {
			b.Fatal(err)
		}
		if string(line) != emptyDecision {
			if err := r.parse(line); err != nil || len(r.Actions) != 1 {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
