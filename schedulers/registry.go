package schedulers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/capacity"
	"sojourn/schedulers/disco"
	"sojourn/schedulers/easy"
	"sojourn/schedulers/exec"
	"sojourn/schedulers/fair"
	"sojourn/schedulers/fifo"
	"sojourn/schedulers/hfsp"
	"sojourn/schedulers/internal/policy"
	"sojourn/schedulers/oracle"
	"sojourn/schedulers/sjf"
	"sojourn/schedulers/yarncapacity"
	"sojourn/schedulers/yarnfair"
	"sojourn/schedulers/yarnfifo"
)

// Policy describes a scheduling policy: its name, a one-line summary, its
// options and its constructor.
type Policy = policy.Policy

// Option is one setting of a policy: its name, its default (as text) and
// what it means, with its unit.
type Option = policy.Option

// Settings holds one policy's option values; see policy.Settings.
type Settings = policy.Settings

// builtin lists the policies compiled into sojourn, in name order, one
// line each. A new policy is a folder beside the others and a line here.
var builtin = []*Policy{
	&capacity.Policy,
	&disco.Policy,
	&easy.Policy,
	&exec.Policy,
	&fair.Policy,
	&fifo.Policy,
	&minimalFIFO,
	&hfsp.FSPPolicy,
	&hfsp.Policy,
	&oracle.LAS,
	&oracle.PS,
	&sjf.Policy,
	&oracle.SRPT,
	&yarncapacity.Policy,
	&yarnfair.Policy,
	&yarnfifo.Policy,
}

// minimalFIFO is the engine's own FIFO (replay.FIFO), the reference the
// engine's tests use.
var minimalFIFO = Policy{
	Name:      (&replay.FIFO{}).Name(),
	Summary:   "the engine's minimal FIFO: priority then submit time, best-locality map, no per-heartbeat limits",
	MayStarve: true, // a job waits for every earlier one
	New:       func(*Settings) (replay.Scheduler, error) { return &replay.FIFO{}, nil },
}

// ErrUnknownPolicy marks a policy name that is not registered.
var ErrUnknownPolicy = errors.New("unknown scheduler")

// Policies lists the built-in policies by name.
func Policies() []*Policy { return builtin }

// Names lists the built-in policy names in order.
func Names() []string {
	names := make([]string, len(builtin))
	for i, p := range builtin {
		names[i] = p.Name
	}
	return names
}

// Lookup returns the policy called name.
func Lookup(name string) (*Policy, error) {
	for _, p := range builtin {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%w %q: want one of %s", ErrUnknownPolicy, name, strings.Join(Names(), ", "))
}

// New builds the policy called name with the given option values; options
// not given take their defaults, and unknown options are errors. An
// external policy (exec) learns the built-in names, which it may not take.
func New(name string, values map[string]string) (replay.Scheduler, error) {
	p, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	s, err := p.Build(values)
	if err != nil {
		return nil, err
	}
	if x, ok := s.(*exec.Exec); ok {
		if err := x.Reserve(isBuiltin); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// isBuiltin reports whether name is a built-in policy's, in any case (a
// result directory's name on a file system that ignores case).
func isBuiltin(name string) bool {
	for _, p := range builtin {
		if strings.EqualFold(p.Name, name) {
			return true
		}
	}
	return false
}

// CheckExternalName checks a name given to an external policy (exec's name
// option, --exec NAME=COMMAND, a sweep file's exec entry): it must label
// results (exec.CheckName) and be no built-in policy's.
func CheckExternalName(name string) error {
	if err := exec.CheckName(name); err != nil {
		return err
	}
	if isBuiltin(name) {
		return fmt.Errorf("%q is a built-in policy's name; choose another", name)
	}
	return nil
}

// ResultName is the name the results of policy with options opts carry,
// as far as it is known before the run: an external policy's name option,
// or else the policy's name. An external policy without the option
// declares its name when it starts (exec.Exec.Name).
func ResultName(policy string, opts map[string]string) string {
	if policy == exec.Name && opts["name"] != "" {
		return opts["name"]
	}
	return policy
}

// ReadConfig reads a policy configuration file: one "policy.option = value"
// per line, '#' starting a comment. It returns the values per policy.
// Errors name the file and line.
func ReadConfig(path string) (map[string]map[string]string, error) {
	vals, _, err := ReadConfigLines(path)
	return vals, err
}

// ReadConfigLines is ReadConfig that also returns the line of each
// "policy.option" set, so that an error in a value found later can name
// the file and the line.
func ReadConfigLines(path string) (map[string]map[string]string, map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, nil, fmt.Errorf("%s: is a directory, want a file of policy.option = value lines", path)
	}
	return parseConfig(f, path)
}

// maxConfigLine is the longest line of a configuration file.
const maxConfigLine = 64 << 10

// ParseConfig parses a policy configuration read from r, named name in
// errors (see ReadConfig). An option given twice is an error naming both
// lines.
func ParseConfig(r io.Reader, name string) (map[string]map[string]string, error) {
	vals, _, err := parseConfig(r, name)
	return vals, err
}

func parseConfig(r io.Reader, name string) (out map[string]map[string]string, seen map[string]int, err error) {
	defer func() {
		if err != nil {
			out, seen = nil, nil
		}
	}()
	out = map[string]map[string]string{}
	seen = map[string]int{} // policy.option: line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxConfigLine)
	ln := 1
	for ; sc.Scan(); ln++ {
		line := policy.StripComment(sc.Text())
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, nil, fmt.Errorf("%s:%d: %q is not policy.option = value", name, ln, line)
		}
		key = strings.TrimSpace(key)
		pol, opt, ok := strings.Cut(key, ".")
		if !ok || pol == "" || opt == "" {
			return nil, nil, fmt.Errorf("%s:%d: key %q is not policy.option", name, ln, key)
		}
		p, err := Lookup(pol)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, ln, err)
		}
		if !p.HasOption(opt) {
			return nil, nil, fmt.Errorf("%s:%d: %s has no option %q", name, ln, pol, opt)
		}
		if first, dup := seen[key]; dup {
			return nil, nil, fmt.Errorf("%s:%d: %s given again (first on line %d); give each option once", name, ln, key, first)
		}
		seen[key] = ln
		if out[pol] == nil {
			out[pol] = map[string]string{}
		}
		out[pol][opt] = strings.TrimSpace(val)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fmt.Errorf("%s:%d: line longer than %d KiB", name, ln, maxConfigLine>>10)
		}
		return nil, nil, fmt.Errorf("%s:%d: %w", name, ln, err)
	}
	return out, seen, nil
}
