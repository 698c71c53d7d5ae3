package exec

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// The test binary doubles as a policy process: run with SOJOURN_EXEC_CLIENT
// set, it speaks the protocol as the mode says instead of running tests.
// Most modes misbehave on purpose, each in one way.
const clientEnv = "SOJOURN_EXEC_CLIENT"

// clientNameEnv is the name the client declares in mode "named".
const clientNameEnv = "SOJOURN_EXEC_CLIENT_NAME"

func init() {
	if mode := os.Getenv(clientEnv); mode != "" {
		os.Exit(testClient(mode))
	}
}

// benchAnswers are the decisions of the benchmark's clients, by mode.
var benchAnswers = map[string]string{
	"bench":        `{"actions":[]}`,
	"bench-launch": `{"actions":[{"op":"launch","job":12,"kind":"map","task":7}]}`,
}

// testClient is a minimal Go policy: it launches the first task the
// engine offers on each heartbeat (a map, else a reduce), unless its mode
// says to break the protocol.
func testClient(mode string) int {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(s string) {
		out.WriteString(s)
		out.WriteByte('\n')
		out.Flush()
	}
	recv := func() map[string]any {
		line, err := in.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			fmt.Fprintln(os.Stderr, "client: bad line from the engine:", err)
			os.Exit(3)
		}
		return m
	}
	recv() // hello
	switch mode {
	case "version":
		send(`{"type":"ready","protocol":99,"name":"future"}`)
	case "silent-ready":
		time.Sleep(time.Hour)
	case "exit-ready":
		fmt.Fprintln(os.Stderr, "client: giving up")
		return 2
	case "preempt", "preempt-off":
		send(`{"type":"ready","protocol":1,"name":"go-` + mode + `","preempts":true}`)
	case "named":
		name, _ := json.Marshal(os.Getenv(clientNameEnv))
		send(`{"type":"ready","protocol":1,"name":` + string(name) + `,"options":["greeting"],"skip_idle":true}`)
	default:
		send(`{"type":"ready","protocol":1,"name":"go-` + mode + `","options":["greeting"],"skip_idle":true}`)
	}
	final := `]}`
	if mode == "preempt-off" {
		final = `],"busy":false}`
	}
	if answer, ok := benchAnswers[mode]; ok {
		// Answer every line with the same decision, as fast as it can.
		answerEveryLine(in, answer)
		return 0
	}
	jobs := map[int]bool{} // arrived and not finished
	for {
		m := recv()
		for _, e := range m["events"].([]any) {
			ev := e.(map[string]any)
			j := int(ev["job"].(float64))
			switch ev["event"] {
			case "job-arrived":
				jobs[j] = true
			case "job-finished":
				delete(jobs, j)
			}
		}
		if m["type"] == "end" {
			if mode == "fail-at-end" {
				return 1
			}
			return 0
		}
		switch mode {
		case "malformed":
			send(`{"actions":[{"op":"launch",`)
			continue
		case "unknown-action":
			send(`{"actions":[{"op":"teleport","job":0,"kind":"map","task":0}]}`)
			continue
		case "invalid-launch":
			send(`{"actions":[{"op":"launch","job":0,"kind":"map","task":99}]}`)
			continue
		case "unknown-query":
			send(`{"query":"future","job":0}`)
			continue
		case "query-no-job":
			send(`{"query":"job","job":99}`)
			continue
		case "launch-best-none":
			send(`{"actions":[{"op":"launch_best","job":0,"kind":"reduce"}]}`)
			continue
		case "exit":
			fmt.Fprintln(os.Stderr, "client: exiting in the middle of the run")
			return 1
		case "silent":
			time.Sleep(time.Hour)
		case "decline":
			send(`{"actions":[]}`)
			continue
		case "decline-slow":
			send(`{"actions": []}`) // not the fast path's bytes
			continue
		case "query-forever":
			for {
				send(`{"query":"cluster"}`)
				recv()
			}
		case "extra-line":
			send(`{"actions":[]}` + "\n" + `{"actions":[]}`)
			continue
		case "flood":
			for {
				send(`{"actions":[]}`)
			}
		case "orphan":
			// A grandchild keeps stdout open; the child itself exits.
			cmd := exec.Command("sleep", "3600")
			cmd.Stdout = os.Stdout
			cmd.Start()
			fmt.Fprintln(os.Stderr, "client: leaving a grandchild behind")
			return 4
		}
		free := m["free"].([]any)
		var acts []string
		for _, j := range slices.Sorted(maps.Keys(jobs)) {
			for k, kind := range []string{"map", "reduce"} {
				if free[k].(float64) < 1 {
					continue
				}
				q := `{"query":"pending_` + kind + `","job":` + fmt.Sprint(j)
				if len(acts) > 0 {
					q += `,"actions":[` + strings.Join(acts, ",") + `]`
					acts = acts[:0]
				}
				send(q + `}`)
				t := int(recv()["task"].(float64))
				if t >= 0 {
					acts = append(acts, fmt.Sprintf(`{"op":"launch","job":%d,"kind":"%s","task":%d}`, j, kind, t))
					free[k] = free[k].(float64) - 1
				}
			}
		}
		send(`{"actions":[` + strings.Join(acts, ",") + final)
	}
}
