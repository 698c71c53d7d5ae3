package main

import (
	"fmt"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
)

// repeated is the value of a flag given once per value: each occurrence
// is one value, commas included (a command line may hold commas, which a
// cli.StringSliceFlag would split at).
type repeated []string

func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }
func (r *repeated) String() string     { return strings.Join(*r, " ") }

// execFlag is --exec of the commands that run policies.
func execFlag(usage string) cli.Flag {
	return &cli.GenericFlag{Name: "exec", Value: &repeated{}, Usage: usage}
}

// external is a policy of --exec: a child process speaking the exec
// protocol, named by NAME= or else by the name it declares.
type external struct {
	name    string // "" until the policy declares its own
	command string
	n       int // its place among the --exec flags, from 1
}

// label is how the policy is called before it runs.
func (e external) label() string {
	if e.name != "" {
		return e.name
	}
	return execpolicy.Name
}

// parseExternal reads one --exec value: [NAME=]COMMAND. The text before
// the first '=' is a name when it holds no blank, quote or '/' (a command
// line's first word is a program); the name must label results and be no
// built-in policy's.
func parseExternal(v string) (external, error) {
	v = strings.TrimSpace(v)
	if name, cmd, ok := strings.Cut(v, "="); ok && !strings.ContainsAny(name, " \t'\"/\\") {
		if err := schedulers.CheckExternalName(name); err != nil {
			return external{}, fmt.Errorf("--exec %s: the name: %v", v, err)
		}
		if strings.TrimSpace(cmd) == "" {
			return external{}, fmt.Errorf("--exec %s: no command after the name", v)
		}
		return external{name: name, command: strings.TrimSpace(cmd)}, nil
	}
	if v == "" {
		return external{}, fmt.Errorf("--exec: empty; want [NAME=]COMMAND")
	}
	return external{command: v}, nil
}

// externals reads every --exec. Two with the same name are an error; two
// without one are told apart when they start, by the names they declare.
func externals(c *cli.Context) ([]external, error) {
	var out []external
	r, _ := c.Generic("exec").(*repeated)
	if r == nil {
		return nil, nil
	}
	seen := map[string]bool{}
	for _, v := range *r {
		e, err := parseExternal(v)
		if err != nil {
			return nil, err
		}
		if e.name != "" && seen[e.name] {
			return nil, fmt.Errorf("--exec: two policies named %s", e.name)
		}
		seen[e.name] = true
		e.n = len(out) + 1
		out = append(out, e)
	}
	if len(out) > 0 && c.IsSet("exec.command") {
		return nil, fmt.Errorf("--exec.command: give the command once, with --exec [NAME=]COMMAND")
	}
	return out, nil
}

// entry is one policy a command runs: a built-in, or an external policy
// (exec) with its command and name among its options.
type entry struct {
	policy string            // in the registry: "fair", "exec"
	vals   map[string]string // its options: defaults, the config file, flags
	who    string            // the policy as given, for errors
}

// label is how the policy is called before it runs; an external one
// without a name declares its own when it starts.
func (e entry) label() string { return schedulers.ResultName(e.policy, e.vals) }

// externalEntry is the entry of external policy x: exec with the options
// of the flags and the config file, and x's command and name.
func externalEntry(c *cli.Context, x external) (entry, error) {
	vals, err := policyValues(c, execpolicy.Name)
	if err != nil {
		return entry{}, err
	}
	vals["command"] = x.command
	if x.name != "" {
		vals["name"] = x.name
	}
	if _, err := schedulers.New(execpolicy.Name, vals); err != nil {
		return entry{}, fmt.Errorf("--exec %s: %w", x.command, err)
	}
	return entry{policy: execpolicy.Name, vals: vals, who: fmt.Sprintf("--exec #%d (%s)", x.n, x.command)}, nil
}

// names hands out the names of the policies one command runs, before
// they run for those known then, as they start for the others: two
// policies of one name would mix their results. It is safe for
// concurrent use.
type names struct {
	mu  sync.Mutex
	who map[string]string // name: the policy as given
}

// claim gives name to the policy given as who, or says who has it.
func (n *names) claim(name, who string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.who == nil {
		n.who = map[string]string{}
	}
	if prev, ok := n.who[name]; ok {
		return fmt.Errorf("%s and %s are both named %s; name external policies apart with --exec NAME=COMMAND", prev, who, name)
	}
	n.who[name] = who
	return nil
}
