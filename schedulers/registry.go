package schedulers

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"sojourn/replay"
)

// Option is one setting of a policy: its name, its default (as text) and
// what it means, with its unit.
type Option struct {
	Name    string
	Default string
	Usage   string
}

// Policy describes a registered scheduling policy.
type Policy struct {
	Name    string
	Summary string
	Options []Option
	// New builds the policy. Settings holds every option, defaults filled in.
	New func(s Settings) (replay.Scheduler, error)
}

// Settings maps option names to values for one policy. Its getters return
// errors that name the option and what was expected.
type Settings struct {
	Policy string
	Values map[string]string
}

// Float returns option name as a number.
func (s Settings) Float(name string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s.Values[name]), 64)
	if err != nil {
		return 0, fmt.Errorf("%s.%s: %q is not a number", s.Policy, name, s.Values[name])
	}
	return v, nil
}

// Int returns option name as an integer.
func (s Settings) Int(name string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s.Values[name]))
	if err != nil {
		return 0, fmt.Errorf("%s.%s: %q is not an integer", s.Policy, name, s.Values[name])
	}
	return v, nil
}

// Bool returns option name as a boolean.
func (s Settings) Bool(name string) (bool, error) {
	v, err := strconv.ParseBool(strings.TrimSpace(s.Values[name]))
	if err != nil {
		return false, fmt.Errorf("%s.%s: %q is not true or false", s.Policy, name, s.Values[name])
	}
	return v, nil
}

// Uint64 returns option name as a non-negative integer (a seed).
func (s Settings) Uint64(name string) (uint64, error) {
	v, err := strconv.ParseUint(s.String(name), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s.%s: %q is not a non-negative integer", s.Policy, name, s.String(name))
	}
	return v, nil
}

// String returns option name as text.
func (s Settings) String(name string) string { return strings.TrimSpace(s.Values[name]) }

// OneOf returns option name, which must be one of choices.
func (s Settings) OneOf(name string, choices ...string) (string, error) {
	v := s.String(name)
	for _, c := range choices {
		if v == c {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s.%s: %q is not one of %s", s.Policy, name, v, strings.Join(choices, ", "))
}

// The registry is the package's only mutable state; policies register in
// init functions.
var registry = map[string]*Policy{}

// ErrUnknownPolicy marks a policy name that is not registered.
var ErrUnknownPolicy = errors.New("unknown scheduler")

// Register adds a policy; a duplicate or empty name is an error.
func Register(p Policy) error {
	if p.Name == "" || p.New == nil {
		return errors.New("schedulers: a policy needs a name and a constructor")
	}
	if _, dup := registry[p.Name]; dup {
		return fmt.Errorf("schedulers: policy %q registered twice", p.Name)
	}
	registry[p.Name] = &p
	return nil
}

func mustRegister(p Policy) {
	if err := Register(p); err != nil {
		panic(err)
	}
}

// Policies lists the registered policies by name.
func Policies() []*Policy {
	out := make([]*Policy, 0, len(registry))
	for _, p := range registry {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names lists the registered policy names in order.
func Names() []string {
	var names []string
	for _, p := range Policies() {
		names = append(names, p.Name)
	}
	return names
}

// Lookup returns the policy called name.
func Lookup(name string) (*Policy, error) {
	p, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("%w %q: want one of %s", ErrUnknownPolicy, name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// New builds the policy called name with the given option values; options
// not given take their defaults, and unknown options are errors.
func New(name string, values map[string]string) (replay.Scheduler, error) {
	p, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	s := Settings{Policy: name, Values: map[string]string{}}
	known := map[string]bool{}
	for _, o := range p.Options {
		s.Values[o.Name] = o.Default
		known[o.Name] = true
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			var names []string
			for _, o := range p.Options {
				names = append(names, o.Name)
			}
			return nil, fmt.Errorf("%s has no option %q (options: %s)", name, k, strings.Join(names, ", "))
		}
		s.Values[k] = values[k]
	}
	return p.New(s)
}

// ReadConfig reads a policy configuration file: one "policy.option = value"
// per line, '#' starting a comment. It returns the values per policy.
// Errors name the file and line.
func ReadConfig(path string) (map[string]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]string{}
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := stripComment(sc.Text())
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q is not policy.option = value", path, ln, line)
		}
		key = strings.TrimSpace(key)
		pol, opt, ok := strings.Cut(key, ".")
		if !ok || pol == "" || opt == "" {
			return nil, fmt.Errorf("%s:%d: key %q is not policy.option", path, ln, key)
		}
		p, err := Lookup(pol)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, ln, err)
		}
		found := false
		for _, o := range p.Options {
			found = found || o.Name == opt
		}
		if !found {
			return nil, fmt.Errorf("%s:%d: %s has no option %q", path, ln, pol, opt)
		}
		if out[pol] == nil {
			out[pol] = map[string]string{}
		}
		out[pol][opt] = strings.TrimSpace(val)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// stripComment is a configuration line without its '#' comment and the
// space around; ReadConfig and ParseCapacityQueues share the syntax.
func stripComment(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

func init() {
	mustRegister(Policy{
		Name:    "fifo-minimal",
		Summary: "the engine's minimal FIFO: priority then submit time, best-locality map, no per-heartbeat limits",
		New:     func(Settings) (replay.Scheduler, error) { return &replay.FIFO{}, nil },
	})
}
