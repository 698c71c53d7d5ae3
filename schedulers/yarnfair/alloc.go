package yarnfair

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"sojourn/replay"
	"sojourn/schedulers/internal/policy"
)

// ErrAllocation is wrapped by every error about the content of an
// allocation file.
var ErrAllocation = errors.New("invalid yarn-fair allocation file")

// QueueSpec is one queue of an allocation file, as written.
type QueueSpec struct {
	Path    string  // full name, e.g. "root.prod.etl"
	Line    int     // the line that declared it; 0 for a parent named only by its children
	Weight  float64 // weight (default 1)
	Min     replay.Resources
	Max     replay.Resources // meaningful when HasMax
	HasMax  bool
	Policy  string // fifo, fair, drf, or "" for the policy option
	MaxApps int    // max-running-apps; 0 for no limit
	// AMShare is max-am-share (<maxAMShare>): a fraction, -1 for no
	// limit; HasAMShare says the file set it (else the option's default).
	AMShare    float64
	HasAMShare bool
}

// Allocation is a parsed allocation file: its queues in file order, a
// parent before its children.
type Allocation struct {
	File   string
	Queues []QueueSpec
}

// maxAllocLine is the longest line of an allocation file.
const maxAllocLine = 64 << 10

// LoadAllocation reads an allocation file (see ParseAllocation).
func LoadAllocation(path string) (*Allocation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseAllocation(bytes.NewReader(data), path)
}

// ParseAllocation reads the queues of an allocation file from r; name is
// the file's name in errors. The format is one queue per line, '#'
// starting a comment:
//
//	root policy=fair                         # the root's own policy
//	prod weight=2 min=20480,10 max=81920,40  # root.prod
//	prod.etl policy=fifo max-running-apps=5  # a child of root.prod
//	root.dev weight=1 policy=drf
//
// A line is the queue's name (dotted for the hierarchy, "root." optional,
// components of letters, digits, '_' and '-') and settings, each
// key=value, at most once: weight (fair-scheduler.xml's <weight>, a
// positive number, default 1), min and max (<minResources> and
// <maxResources>: MiB,vcores), policy (<schedulingPolicy>: fifo, fair or
// drf), max-running-apps (<maxRunningApps>, a positive integer) and
// max-am-share (<maxAMShare>: the fraction of the queue's fair share its
// ApplicationMasters may hold, -1 for no limit; leaves only). A
// queue named only as the parent of others exists with the defaults. The
// root takes only policy and max-running-apps. Each queue is declared
// once. Errors are one line naming the file and the line, and wrap
// ErrAllocation.
func ParseAllocation(r io.Reader, name string) (*Allocation, error) {
	fail := func(line int, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrAllocation, name, line, fmt.Sprintf(format, args...))
	}
	a := &Allocation{File: name, Queues: []QueueSpec{{Path: "root", Weight: 1}}}
	index := map[string]int{"root": 0}
	declared := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxAllocLine)
	ln := 0
	for sc.Scan() {
		ln++
		fields := strings.Fields(policy.StripComment(sc.Text()))
		if len(fields) == 0 {
			continue
		}
		path, err := QueuePath(fields[0])
		if err != nil {
			return nil, fail(ln, "%v", err)
		}
		if first, dup := declared[path]; dup {
			return nil, fail(ln, "queue %s declared again (first on line %d)", path, first)
		}
		declared[path] = ln
		// Create the queue and any parent not seen yet.
		parts := strings.Split(path, ".")
		for i := 2; i <= len(parts); i++ {
			p := strings.Join(parts[:i], ".")
			if _, ok := index[p]; !ok {
				index[p] = len(a.Queues)
				a.Queues = append(a.Queues, QueueSpec{Path: p, Weight: 1})
			}
		}
		q := &a.Queues[index[path]]
		q.Line = ln
		seen := map[string]bool{}
		for _, f := range fields[1:] {
			key, val, ok := strings.Cut(f, "=")
			if !ok || val == "" {
				return nil, fail(ln, "%q is not key=value", f)
			}
			if seen[key] {
				return nil, fail(ln, "%s given twice for %s", key, path)
			}
			seen[key] = true
			if path == "root" && key != "policy" && key != "max-running-apps" {
				return nil, fail(ln, "root takes only policy and max-running-apps, not %s: the root has all the cluster", key)
			}
			if err := q.set(key, val); err != nil {
				return nil, fail(ln, "%s: %v", path, err)
			}
		}
		if q.HasMax {
			for r := range 2 {
				if q.Min[r] > q.Max[r] {
					return nil, fail(ln, "%s: min %d,%d exceeds max %d,%d", path, q.Min[0], q.Min[1], q.Max[0], q.Max[1])
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail(ln+1, "line longer than %d KiB", maxAllocLine>>10)
		}
		return nil, fail(ln+1, "%v", err)
	}
	return a, nil
}

// QueuePath is the full name of a queue written with or without its
// "root." prefix, or an error if a component is not a valid name.
func QueuePath(s string) (string, error) {
	if s != "root" && !strings.HasPrefix(s, "root.") {
		s = "root." + s
	}
	for _, c := range strings.Split(s, ".") {
		if !validName(c) {
			return "", fmt.Errorf("queue name %q: want dot-separated names of letters, digits, '_' or '-'", s)
		}
	}
	return s, nil
}

func validName(n string) bool {
	if n == "" || len(n) > 255 {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// set stores setting key of the queue.
func (q *QueueSpec) set(key, val string) error {
	switch key {
	case "weight":
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(w) || w <= 0 || w > 1e6 {
			return fmt.Errorf("weight %q: want a number in (0, 1e6]", val)
		}
		q.Weight = w
	case "min", "max":
		r, err := parseResources(val)
		if err != nil {
			return fmt.Errorf("%s %q: %v", key, val, err)
		}
		if key == "min" {
			q.Min = r
		} else {
			q.Max, q.HasMax = r, true
		}
	case "policy":
		switch val {
		case "fifo", "fair", "drf":
			q.Policy = val
		default:
			return fmt.Errorf("policy %q: want fifo, fair or drf", val)
		}
	case "max-running-apps":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > policy.MaxInt {
			return fmt.Errorf("max-running-apps %q: want an integer from 1 to %d", val, policy.MaxInt)
		}
		q.MaxApps = n
	case "max-am-share":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || !(f == -1 || f >= 0 && f <= 1) {
			return fmt.Errorf("max-am-share %q: want a fraction from 0 to 1, or -1 for no limit", val)
		}
		q.AMShare, q.HasAMShare = f, true
	default:
		return fmt.Errorf("unknown setting %q; want weight, min, max, policy, max-running-apps or max-am-share", key)
	}
	return nil
}

// maxAllocMB and maxAllocVcores bound min and max.
const (
	maxAllocMB     = 1 << 40
	maxAllocVcores = 1 << 30
)

// parseResources reads "MiB,vcores".
func parseResources(s string) (replay.Resources, error) {
	var r replay.Resources
	m, v, ok := strings.Cut(s, ",")
	if !ok {
		return r, errors.New("want MiB,vcores")
	}
	mb, err1 := strconv.ParseInt(m, 10, 64)
	vc, err2 := strconv.ParseInt(v, 10, 64)
	if err1 != nil || err2 != nil || mb < 0 || vc < 0 || mb > maxAllocMB || vc > maxAllocVcores {
		return r, fmt.Errorf("want MiB,vcores: integers from 0 to %d and %d", int64(maxAllocMB), int64(maxAllocVcores))
	}
	r[0], r[1] = mb, vc
	return r, nil
}
