package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"sojourn/internal/jsondup"
	"sojourn/internal/shellwords"
	"sojourn/replay"
	"sojourn/replay/clusterfile"
	"sojourn/schedulers"
	execpolicy "sojourn/schedulers/exec"
	"sojourn/swim"
)

// Spec is a sweep file: workloads × policies × parameters × seeds.
type Spec struct {
	// Name labels the sweep in its outputs.
	Name      string     `json:"name"`
	Workloads []Workload `json:"workloads"`
	// Policies are built-in policies and external ones, by name.
	Policies []string `json:"policies"`
	// Exec names external policies (exec) and gives their command lines:
	// "exec": {"mine": "python3 my_policy.py"}. Each name, listed in
	// Policies, labels its results (exec.CheckName; a built-in policy's
	// name is refused), and its options are exec's but the command and the
	// name: "mine.args", "mine.timeout".
	Exec map[string]string `json:"exec,omitempty"`
	// Parameters are swept: every combination of their values is a cell.
	// A name is a cluster parameter (a bench replay flag such as "nodes")
	// or a policy option "policy.option", which varies only the cells of
	// that policy.
	Parameters map[string][]Value `json:"parameters,omitempty"`
	// Fixed holds single-valued parameters, named as in Parameters.
	Fixed map[string]Value `json:"fixed,omitempty"`
	// Seeds seed both the generated workloads and the replays; the
	// default is [1].
	Seeds Seeds `json:"seeds,omitempty"`

	// dir is the sweep file's directory, which relative paths in it
	// (traces, cluster files, policies' pools and queues files) are
	// relative to.
	dir string
}

// Workload is a generated profile or a trace file.
type Workload struct {
	Name    string  `json:"name"`               // unique; letters, digits, '.', '_', '-'
	Profile string  `json:"profile,omitempty"`  // fb2009 or fb2010, generated per seed
	Jobs    int     `json:"jobs,omitempty"`     // jobs to generate (0: the profile's)
	MeanGap float64 `json:"mean_gap,omitempty"` // mean gap between submits, s (0: the profile's)
	Nodes   int     `json:"nodes,omitempty"`    // cluster size the bytes are scaled to (0: 100)
	// Trace is an Arrow trace file, relative to the sweep file; it is the
	// same for every seed.
	Trace string `json:"trace,omitempty"`
}

// Value is a parameter value: a JSON number, string or boolean, kept as
// text (numbers as written, so that labels read "0.10" if the file does).
type Value string

// UnmarshalJSON accepts a number, a string or a boolean.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = Value(s)
	case string(b) == "true" || string(b) == "false":
		*v = Value(b)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			// Reported by check, which knows the field.
			*v = Value(badValue + string(b))
			return nil
		}
		*v = Value(n)
	}
	return nil
}

// badValue prefixes the JSON text of a value that is not a scalar.
const badValue = "\x00bad:"

// Seeds is a list of seeds, written as [1, 2, 3] or {"from": 1, "to": 50}.
type Seeds []uint64

// UnmarshalJSON accepts a list or an inclusive range.
func (s *Seeds) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '{' {
		var r struct {
			From *uint64 `json:"from"`
			To   *uint64 `json:"to"`
		}
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		if err := d.Decode(&r); err != nil {
			return fmt.Errorf("seeds: want {\"from\": first, \"to\": last}: %v", err)
		}
		if r.From == nil || r.To == nil || *r.To < *r.From {
			return errors.New("seeds: want {\"from\": first, \"to\": last} with first <= last")
		}
		if *r.To-*r.From >= maxCells {
			return fmt.Errorf("seeds: %d to %d is more than %d seeds, the most cells a sweep may have", *r.From, *r.To, maxCells)
		}
		*s = nil
		for x := *r.From; ; x++ {
			*s = append(*s, x)
			if x == *r.To {
				break
			}
		}
		return nil
	}
	var l []uint64
	if err := json.Unmarshal(b, &l); err != nil {
		return errors.New("seeds: want a list of non-negative integers or {\"from\": first, \"to\": last}")
	}
	*s = l
	return nil
}

// maxCells bounds a sweep: a million cells take about 1.7 GB to list
// (measured: 4.4 s, 1.7 GB peak for --list of 100 × 100 × 100), and ten
// times as many would not fit a machine of 16 GB.
const maxCells = 1_000_000

var workloadName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// decode reads a sweep file, rejecting unknown fields, with errors that
// name the file and the line or field.
func decode(path string, data []byte) (*Spec, error) {
	var s Spec
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			line, col := position(data, syn.Offset-1)
			return nil, fmt.Errorf("%s: line %d, column %d: %v", path, line, col, syn)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("%s: field %s: want %s, got %s", path, shown(typ.Field), typ.Type, typ.Value)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			line, col := position(data, int64(len(data)))
			return nil, fmt.Errorf("%s: line %d, column %d: the file ends inside a JSON value (truncated?)", path, line, col)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil, fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "json: "))
	}
	if d.More() {
		return nil, fmt.Errorf("%s: more than one JSON value", path)
	}
	if err := jsondup.Check(path, data); err != nil {
		return nil, err
	}
	return &s, nil
}

// position turns a byte offset into the 1-based line and column of the
// byte there.
func position(data []byte, off int64) (line, col int) {
	off = min(off, int64(len(data)))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// check validates a decoded spec; errors name the field.
func (s *Spec) check() error {
	if s.Name == "" {
		return errors.New("name: missing")
	}
	if len(s.Workloads) == 0 {
		return errors.New("workloads: none given")
	}
	seen := map[string]bool{}
	for i, w := range s.Workloads {
		f := fmt.Sprintf("workloads[%d]", i)
		switch {
		case !workloadName.MatchString(w.Name):
			return fmt.Errorf("%s.name: %q; want letters, digits, '.', '_' or '-'", f, w.Name)
		case seen[w.Name]:
			return fmt.Errorf("%s.name: %q given twice", f, w.Name)
		case (w.Profile == "") == (w.Trace == ""):
			return fmt.Errorf("%s: give a profile (%s) or a trace file, not both or neither", f, strings.Join(swim.ProfileNames(), ", "))
		case w.Trace != "" && (w.Jobs != 0 || w.MeanGap != 0 || w.Nodes != 0):
			return fmt.Errorf("%s: jobs, mean_gap and nodes apply to a profile, not to a trace file", f)
		case w.Jobs < 0 || w.Nodes < 0 || w.MeanGap < 0:
			return fmt.Errorf("%s: jobs, mean_gap and nodes must be >= 0", f)
		case w.Jobs > swim.MaxJobs:
			return fmt.Errorf("%s.jobs: %d; want 0 (the profile's) to %d", f, w.Jobs, swim.MaxJobs)
		case w.Nodes > replay.MaxNodes:
			return fmt.Errorf("%s.nodes: %d; want 0 (100) to %d", f, w.Nodes, replay.MaxNodes)
		case w.MeanGap > swim.MaxTime:
			return fmt.Errorf("%s.mean_gap: %v s; want 0 (the profile's) to %g s", f, w.MeanGap, swim.MaxTime)
		}
		if w.Profile != "" {
			if _, err := swim.LookupProfile(w.Profile); err != nil {
				return fmt.Errorf("%s.profile: %v", f, err)
			}
		}
		seen[w.Name] = true
	}
	if len(s.Policies) == 0 {
		return errors.New("policies: none given")
	}
	for _, name := range sortedKeys(s.Exec) {
		if err := schedulers.CheckExternalName(name); err != nil {
			return fmt.Errorf("exec.%s: %v", shown(name), err)
		}
		if _, err := shellwords.Split(s.Exec[name]); err != nil || strings.TrimSpace(s.Exec[name]) == "" {
			return fmt.Errorf("exec.%s: %s is not a command line", shown(name), strconv.Quote(s.Exec[name]))
		}
		if !slices.Contains(s.Policies, name) {
			return fmt.Errorf("exec.%s: not in policies", shown(name))
		}
	}
	pols := map[string]bool{}
	for i, p := range s.Policies {
		if _, ok := s.Exec[p]; !ok {
			if _, err := schedulers.Lookup(p); err != nil {
				return fmt.Errorf("policies[%d]: %v, or an external policy's name in exec", i, err)
			}
		}
		if pols[p] {
			return fmt.Errorf("policies[%d]: %q given twice", i, p)
		}
		pols[p] = true
	}
	for _, k := range sortedKeys(s.Parameters) {
		if len(s.Parameters[k]) == 0 {
			return fmt.Errorf("parameters.%s: no values", shown(k))
		}
		if _, dup := s.Fixed[k]; dup {
			return fmt.Errorf("parameters.%s: also in fixed", shown(k))
		}
		seen := map[Value]int{}
		for i, v := range s.Parameters[k] {
			if err := checkParam(s.dir, k, v, pols, s.Exec); err != nil {
				return fmt.Errorf("parameters.%s[%d]: %v", shown(k), i, err)
			}
			// Two equal values would make two groups of identical cells,
			// which bench compare would pool as extra seeds.
			if j, ok := seen[v]; ok {
				return fmt.Errorf("parameters.%s[%d]: %s is parameters.%s[%d] again", shown(k), i, shown(string(v)), shown(k), j)
			}
			seen[v] = i
		}
	}
	for _, k := range sortedKeys(s.Fixed) {
		if err := checkParam(s.dir, k, s.Fixed[k], pols, s.Exec); err != nil {
			return fmt.Errorf("fixed.%s: %v", shown(k), err)
		}
	}
	if s.Seeds == nil {
		s.Seeds = Seeds{1}
	}
	dup := map[uint64]bool{}
	for i, x := range s.Seeds {
		if dup[x] {
			return fmt.Errorf("seeds[%d]: %d given twice", i, x)
		}
		dup[x] = true
	}
	return nil
}

// shown is a name or value from the file as an error shows it: as
// written when it is all printable, quoted otherwise, so that an error
// stays one line whatever the file holds (a key may hold a newline).
func shown(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// checkParam checks one value of parameter name: a cluster parameter must
// parse, and a policy option must name a listed policy and one of its
// options (its value is checked when the cells are built); an external
// policy's options are exec's but its command and name, which exec gives.
func checkParam(dir, name string, v Value, policies map[string]bool, external map[string]string) error {
	if raw, bad := strings.CutPrefix(string(v), badValue); bad {
		return fmt.Errorf("want a number, a string or true/false, got %s", shown(raw))
	}
	pol, opt, isOpt := strings.Cut(name, ".")
	if !isOpt {
		p, ok := clusterParams[name]
		if !ok {
			return fmt.Errorf("unknown parameter; want a policy option policy.option or one of %s", strings.Join(sortedKeys(clusterParams), ", "))
		}
		if err := p.check(dir, string(v)); err != nil {
			return err
		}
		// The range of every cluster parameter is replay's, as for
		// bench replay's flags: 0, NaN or a huge value is refused.
		if spec, ok := replay.LookupParam(name); ok {
			if spec.Integer {
				n, _ := strconv.ParseInt(string(v), 10, 64)
				return spec.CheckInt(n)
			}
			f, _ := strconv.ParseFloat(string(v), 64)
			return spec.Check(f)
		}
		return nil
	}
	if !policies[pol] {
		return fmt.Errorf("policy %s is not in policies", shown(pol))
	}
	of := pol
	_, isExternal := external[pol]
	if isExternal {
		of = execpolicy.Name
		if opt == "command" || opt == "name" {
			return fmt.Errorf("the external policy %s has its name and command from exec.%s", pol, pol)
		}
	}
	p, _ := schedulers.Lookup(of)
	var names []string
	for _, o := range p.Options {
		if isExternal && (o.Name == "command" || o.Name == "name") {
			continue
		}
		if o.Name == opt {
			return nil
		}
		names = append(names, o.Name)
	}
	return fmt.Errorf("%s has no option %q (options: %s)", shown(pol), opt, strings.Join(names, ", "))
}

func (p clusterParam) check(dir, v string) error {
	var err error
	switch p.kind {
	case kindInt:
		_, err = strconv.Atoi(v)
	case kindFloat:
		_, err = strconv.ParseFloat(v, 64)
	case kindBool:
		_, err = strconv.ParseBool(v)
	case kindModel:
		if _, err := replay.ParseModel(v); err != nil {
			return err
		}
	case kindPath:
		_, err := clusterfile.Load(inDir(dir, v))
		return err
	}
	if err != nil {
		return fmt.Errorf("%q is not %s", v, map[int]string{kindInt: "an integer", kindFloat: "a number", kindBool: "true or false"}[p.kind])
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NewPlan checks a sweep built in memory and expands it into its cells;
// trace files are relative to dir. Errors name the field.
func NewPlan(s *Spec, dir string) (*Plan, error) {
	s.dir = dir
	if err := s.check(); err != nil {
		return nil, err
	}
	return expand(s, filepath.Join(dir, "sweep.json"))
}

// Load reads and checks a sweep file and expands it into its cells.
// Errors are one line naming the file and the field.
func Load(path string) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	s.dir = filepath.Dir(path)
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p, err := expand(s, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	p.Path = path
	return p, nil
}

// inDir resolves a path of the sweep file: relative to its directory,
// as the traces are, not to the working directory.
func inDir(dir, path string) string {
	if filepath.IsAbs(path) || dir == "" {
		return path
	}
	return filepath.Join(dir, path)
}
