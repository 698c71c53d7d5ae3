package queues

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sojourn/schedulers/internal/policy"
	"strconv"
	"strings"
)

// ErrQueueConfig is wrapped by every error about the content of a
// CapacityScheduler queues file.
var ErrQueueConfig = errors.New("invalid capacity queue configuration")

// Queue is one queue of the CapacityScheduler's hierarchy.
// Capacities are percentages of the parent queue's; the absolute ones are
// fractions of the cluster.
type Queue struct {
	Path                string // full name, e.g. "root.prod.etl"
	Name                string // last component, e.g. "etl"
	Capacity            float64
	MaxCapacity         float64 // default 100
	UserLimitFactor     float64 // default 1
	MinUserLimitPercent float64 // default 100
	// MaxAMResourcePercent is the fraction (0 to 1) of the queue's
	// resources its ApplicationMasters may hold, -1 when the file leaves
	// it to the scheduler's global default (yarn-capacity only).
	MaxAMResourcePercent float64
	AbsCapacity          float64 // Capacity × the parent's AbsCapacity
	AbsMaxCapacity       float64 // MaxCapacity × the parent's AbsMaxCapacity
	Parent               *Queue
	Children             []*Queue // in the order the file names them

	line    int            // first line naming the queue
	lines   map[string]int // property → line that set it
	capSeen bool
}

// Leaf reports whether the queue has no children (jobs run only in leaves).
func (q *Queue) Leaf() bool { return len(q.Children) == 0 }

// Queues is a validated queue hierarchy.
type Queues struct {
	Root   *Queue
	Leaves []*Queue // in depth-first file order
	File   string   // where it was read from ("" for the default)
}

// DefaultQueueName is the leaf that takes the jobs of pools naming no
// queue, if the hierarchy has one.
const DefaultQueueName = "default"

// capacityProps are the per-queue properties of the file format.
var capacityProps = []string{"capacity", "maximum-capacity", "user-limit-factor", "minimum-user-limit-percent", "maximum-am-resource-percent"}

// Default is the hierarchy with no file: one leaf,
// root.default, with all the cluster.
func Default() *Queues {
	root := &Queue{Path: "root", Name: "root", Capacity: 100, MaxCapacity: 100, UserLimitFactor: 1,
		MinUserLimitPercent: 100, MaxAMResourcePercent: -1, AbsCapacity: 1, AbsMaxCapacity: 1}
	def := &Queue{Path: "root.default", Name: DefaultQueueName, Capacity: 100, MaxCapacity: 100,
		UserLimitFactor: 1, MinUserLimitPercent: 100, MaxAMResourcePercent: -1, AbsCapacity: 1, AbsMaxCapacity: 1, Parent: root}
	root.Children = []*Queue{def}
	return &Queues{Root: root, Leaves: []*Queue{def}}
}

// Queue returns the leaf queue a job of the given pool runs in: the leaf
// whose name or full path is pool; failing that the leaf called default,
// if there is one.
func (c *Queues) Queue(pool string) (*Queue, bool) {
	var def *Queue
	for _, q := range c.Leaves {
		if q.Name == pool || q.Path == pool {
			return q, true
		}
		if q.Name == DefaultQueueName {
			def = q
		}
	}
	return def, def != nil
}

// NoLeaf is the error for a job of the given pool that Queue places in no
// leaf: it names the job, the pool, the hierarchy's file and its leaves.
func (c *Queues) NoLeaf(job int32, name, pool string) error {
	var names []string
	for _, l := range c.Leaves {
		names = append(names, l.Name)
	}
	src := c.File
	if src == "" {
		src = "the default queues"
	}
	return fmt.Errorf("job %d (%s) is submitted to pool %q, which names no leaf queue of %s (leaves: %s) and there is no leaf called %s",
		job, name, pool, src, strings.Join(names, ", "), DefaultQueueName)
}

// Load reads a queues file (see Parse).
// Open is Load, or Default when path is empty (a policy's queues option
// left out).
func Open(path string) (*Queues, error) {
	if path == "" {
		return Default(), nil
	}
	return Load(path)
}

func Load(path string) (*Queues, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(bytes.NewReader(data), path)
}

// Parse reads a CapacityScheduler queue hierarchy from r; name
// is used in errors. The format is one setting per line, '#' starting a
// comment:
//
//	root.prod.capacity = 70                 # percent of the parent
//	root.prod.maximum-capacity = 100        # elastic limit, percent of the parent (default 100)
//	root.prod.user-limit-factor = 2         # a user may take 2 × the queue's capacity (default 1)
//	root.prod.minimum-user-limit-percent = 50  # (default 100)
//	root.prod.maximum-am-resource-percent = 0.2  # fraction for AMs (yarn-capacity; default its option)
//	root.dev.capacity = 30
//	root.dev.adhoc.capacity = 100           # a child of root.dev
//
// A key may carry YARN's prefix (yarn.scheduler.capacity.root.…). Queues
// exist by being named; each but root needs a capacity, and the
// capacities of a queue's children sum to 100. Queue names are letters,
// digits, '_' and '-'; leaf names must be unique, since a job names its
// queue by the leaf's name (or full path) in its pool. Errors name the
// file, the line and what was expected, and wrap ErrQueueConfig.
func Parse(r io.Reader, name string) (*Queues, error) {
	fail := func(line int, format string, args ...any) error {
		return fmt.Errorf("%w: %s:%d: %s", ErrQueueConfig, name, line, fmt.Sprintf(format, args...))
	}
	root := &Queue{Path: "root", Name: "root", Capacity: 100, MaxCapacity: 100, UserLimitFactor: 1,
		MinUserLimitPercent: 100, MaxAMResourcePercent: -1, lines: map[string]int{}, capSeen: true}
	byPath := map[string]*Queue{"root": root}
	sc := bufio.NewScanner(r)
	ln := 0
	for sc.Scan() {
		ln++
		text := policy.StripComment(sc.Text())
		if text == "" {
			continue
		}
		key, val, ok := strings.Cut(text, "=")
		if !ok {
			return nil, fail(ln, "%q is not root.QUEUE.PROPERTY = VALUE", text)
		}
		key, val = strings.TrimPrefix(strings.TrimSpace(key), "yarn.scheduler.capacity."), strings.TrimSpace(val)
		parts := strings.Split(key, ".")
		prop := parts[len(parts)-1]
		if len(parts) < 2 || parts[0] != "root" || !slices.Contains(capacityProps, prop) {
			return nil, fail(ln, "key %q is not root.QUEUE.PROPERTY with PROPERTY one of %s", key, strings.Join(capacityProps, ", "))
		}
		q := root
		for i, n := range parts[1 : len(parts)-1] {
			if !validQueueName(n) {
				return nil, fail(ln, "queue name %q in %q: want letters, digits, '_' or '-'", n, key)
			}
			path := strings.Join(parts[:i+2], ".")
			child := byPath[path]
			if child == nil {
				child = &Queue{Path: path, Name: n, MaxCapacity: 100, UserLimitFactor: 1,
					MinUserLimitPercent: 100, MaxAMResourcePercent: -1, Parent: q, line: ln, lines: map[string]int{}}
				byPath[path] = child
				q.Children = append(q.Children, child)
			}
			q = child
		}
		if first, dup := q.lines[prop]; dup {
			return nil, fail(ln, "%s.%s set again (first on line %d)", q.Path, prop, first)
		}
		q.lines[prop] = ln
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fail(ln, "%s: %q is not a number", key, val)
		}
		if err := q.set(prop, v); err != nil {
			return nil, fail(ln, "%s: %v", key, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fail(ln+1, "line unreadable (%v; a line holds at most 64 KiB)", err)
	}
	if root.Leaf() {
		return nil, fmt.Errorf("%w: %s: no queue defined; want lines like root.default.capacity = 100", ErrQueueConfig, name)
	}
	c := &Queues{Root: root, File: name}
	if err := c.finish(root, fail); err != nil {
		return nil, err
	}
	seen := map[string]*Queue{}
	for _, q := range c.Leaves {
		if other := seen[q.Name]; other != nil {
			return nil, fail(q.line, "leaf queue name %q is used by %s and %s; leaf names must be unique, since a job's pool names its queue",
				q.Name, other.Path, q.Path)
		}
		seen[q.Name] = q
	}
	return c, nil
}

func validQueueName(n string) bool {
	if n == "" {
		return false
	}
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// set stores property prop, checking its range.
func (q *Queue) set(prop string, v float64) error {
	if q.Parent == nil && (prop != "capacity" && prop != "maximum-capacity" || v != 100) {
		return errors.New("root has all the cluster: only root.capacity = 100 and root.maximum-capacity = 100 may be given")
	}
	switch prop {
	case "capacity":
		if v < 0 || v > 100 {
			return fmt.Errorf("%v; want a percentage of the parent queue, 0 to 100", v)
		}
		q.Capacity, q.capSeen = v, true
	case "maximum-capacity":
		if v <= 0 || v > 100 {
			return fmt.Errorf("%v; want a percentage of the parent queue, above 0 and at most 100", v)
		}
		q.MaxCapacity = v
	case "user-limit-factor":
		if v <= 0 {
			return fmt.Errorf("%v; want a factor > 0", v)
		}
		q.UserLimitFactor = v
	case "minimum-user-limit-percent":
		if v <= 0 || v > 100 {
			return fmt.Errorf("%v; want a percentage above 0 and at most 100", v)
		}
		q.MinUserLimitPercent = v
	case "maximum-am-resource-percent":
		if v < 0 || v > 1 {
			return fmt.Errorf("%v; want a fraction of the queue's resources, 0 to 1", v)
		}
		q.MaxAMResourcePercent = v
	}
	return nil
}

// finish checks q's subtree, computes absolute capacities and lists the
// leaves.
func (c *Queues) finish(q *Queue, fail func(int, string, ...any) error) error {
	if q.Parent != nil {
		if !q.capSeen {
			return fail(q.line, "queue %s has no capacity; add a line %s.capacity = PERCENT", q.Path, q.Path)
		}
		if q.MaxCapacity < q.Capacity {
			return fail(q.lines["maximum-capacity"], "%s.maximum-capacity = %v is below its capacity %v", q.Path, q.MaxCapacity, q.Capacity)
		}
		q.AbsCapacity = q.Parent.AbsCapacity * q.Capacity / 100
		q.AbsMaxCapacity = q.Parent.AbsMaxCapacity * q.MaxCapacity / 100
	} else {
		q.AbsCapacity, q.AbsMaxCapacity = 1, 1
	}
	if q.Leaf() {
		c.Leaves = append(c.Leaves, q)
		return nil
	}
	sum := 0.0
	for _, ch := range q.Children {
		if !ch.capSeen {
			return fail(ch.line, "queue %s has no capacity; add a line %s.capacity = PERCENT", ch.Path, ch.Path)
		}
		sum += ch.Capacity
	}
	if math.Abs(sum-100) > 1e-6 {
		first := q.Children[0]
		return fail(first.lines["capacity"], "the children of %s have capacities summing to %v; want 100", q.Path, sum)
	}
	for _, ch := range q.Children {
		if err := c.finish(ch, fail); err != nil {
			return err
		}
	}
	return nil
}
