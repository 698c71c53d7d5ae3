package pools

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrPoolConfig is wrapped by every error about the content of a pools
// file; see PoolConfigError.
var ErrPoolConfig = errors.New("invalid pool configuration")

// PoolConfigError locates a bad value in a pools file: file, line (from 1),
// pool (if inside one) and field (an XML element name, or the text
// format's column name).
type PoolConfigError struct {
	File  string
	Line  int
	Pool  string
	Field string
	Msg   string
}

func (e *PoolConfigError) Error() string {
	s := fmt.Sprintf("%s:%d: ", e.File, e.Line)
	if e.Pool != "" {
		s += fmt.Sprintf("pool %q: ", e.Pool)
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// Unwrap returns ErrPoolConfig.
func (e *PoolConfigError) Unwrap() error { return ErrPoolConfig }

// SchedulingMode is how a FAIR pool shares its slots among its jobs.
type SchedulingMode uint8

const (
	ModeFair SchedulingMode = iota // fair sharing among the pool's jobs (Hadoop's default)
	ModeFIFO                       // by priority, then submit time
)

func (m SchedulingMode) String() string {
	switch m {
	case ModeFair:
		return "fair"
	case ModeFIFO:
		return "fifo"
	}
	return fmt.Sprintf("SchedulingMode(%d)", uint8(m))
}

// Unlimited is the value of a job or slot limit that is not set (Hadoop's
// Integer.MAX_VALUE).
const Unlimited = math.MaxInt

// DefaultName is the pool of jobs that name no pool in Hadoop 1.x.
const DefaultName = "default"

// PoolConfig is the configuration of one FAIR pool. Timeouts are in
// seconds; +Inf disables preemption.
type PoolConfig struct {
	Name                      string
	Weight                    float64 // default 1
	MinMaps, MinReduces       int     // minimum shares, default 0
	MaxMaps, MaxReduces       int     // slot caps, default Unlimited
	Mode                      SchedulingMode
	MaxRunningJobs            int     // default Pools.PoolMaxJobsDefault
	MinSharePreemptionTimeout float64 // default Pools.DefaultMinSharePreemptionTimeout
}

// Pools is a FAIR allocation configuration: global settings, declared pools
// and per-user job limits. Build one with New, Parse or Load;
// a nil *Pools answers like New().
type Pools struct {
	FairSharePreemptionTimeout       float64 // seconds; +Inf (default) disables
	DefaultMinSharePreemptionTimeout float64 // seconds; +Inf (default) disables
	PoolMaxJobsDefault               int     // default Unlimited
	UserMaxJobsDefault               int     // default Unlimited
	DefaultPoolSchedulingMode        SchedulingMode

	pools map[string]*poolEntry
	users map[string]int
}

// poolEntry is a declared pool. Fields left unset hold a sentinel
// (modeUnset, -1, NaN) and follow the global defaults.
type poolEntry struct {
	cfg  PoolConfig
	line int
}

const modeUnset SchedulingMode = 255

// New returns Hadoop's defaults: no declared pools, no job limits, no
// preemption, fair mode.
func New() *Pools {
	return &Pools{
		FairSharePreemptionTimeout:       math.Inf(1),
		DefaultMinSharePreemptionTimeout: math.Inf(1),
		PoolMaxJobsDefault:               Unlimited,
		UserMaxJobsDefault:               Unlimited,
		pools:                            map[string]*poolEntry{},
		users:                            map[string]int{},
	}
}

// Pool returns the configuration of pool name. Like Hadoop, which creates
// pools on demand, it answers for undeclared pools too, with the defaults.
func (p *Pools) Pool(name string) PoolConfig {
	if p == nil {
		p = New()
	}
	e, ok := p.pools[name]
	if !ok {
		e = newPoolEntry(name, 0)
	}
	c := e.cfg
	if c.Mode == modeUnset {
		c.Mode = p.DefaultPoolSchedulingMode
	}
	if c.MaxRunningJobs < 0 {
		c.MaxRunningJobs = p.PoolMaxJobsDefault
	}
	if math.IsNaN(c.MinSharePreemptionTimeout) {
		c.MinSharePreemptionTimeout = p.DefaultMinSharePreemptionTimeout
	}
	return c
}

// Declared lists the pools the configuration declares, by name.
func (p *Pools) Declared() []string {
	if p == nil {
		return nil
	}
	names := make([]string, 0, len(p.pools))
	for name := range p.pools {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// UserMaxJobs returns how many jobs of user may run at once.
func (p *Pools) UserMaxJobs(user string) int {
	if p == nil {
		return Unlimited
	}
	if n, ok := p.users[user]; ok {
		return n
	}
	return p.UserMaxJobsDefault
}

func newPoolEntry(name string, line int) *poolEntry {
	return &poolEntry{line: line, cfg: PoolConfig{Name: name, Weight: 1, MaxMaps: Unlimited, MaxReduces: Unlimited,
		Mode: modeUnset, MaxRunningJobs: -1, MinSharePreemptionTimeout: math.NaN()}}
}

// Load reads a pools file; see Parse.
func Load(path string) (*Pools, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // *fs.PathError names the file
	}
	return parsePools(data, path)
}

// Parse reads pools from r; name is used in errors and to choose the
// format. Files named *.xml, and any content that starts with '<', are
// Hadoop 1.x fair-scheduler allocation files:
//
//	<allocations>
//	  <pool name="research">
//	    <minMaps>5</minMaps> <minReduces>2</minReduces> <weight>2.0</weight>
//	    <schedulingMode>fifo</schedulingMode> <maxRunningJobs>10</maxRunningJobs>
//	    <minSharePreemptionTimeout>60</minSharePreemptionTimeout>
//	    <maxMaps>50</maxMaps> <maxReduces>20</maxReduces>
//	  </pool>
//	  <user name="alice"><maxRunningJobs>3</maxRunningJobs></user>
//	  <poolMaxJobsDefault>20</poolMaxJobsDefault> <userMaxJobsDefault>5</userMaxJobsDefault>
//	  <fairSharePreemptionTimeout>600</fairSharePreemptionTimeout>
//	  <defaultMinSharePreemptionTimeout>300</defaultMinSharePreemptionTimeout>
//	  <defaultPoolSchedulingMode>fair</defaultPoolSchedulingMode>
//	</allocations>
//
// with timeouts in seconds. Anything else is the plain text format, one
// pool per line, with '#' starting a comment:
//
//	# pool     mode  weight  minMaps  minReduces
//	research   fifo  2.0     5        2
//
// Unlike Hadoop, which logs and skips them, unknown elements are errors, as
// are negative or malformed numbers, modes other than fair and fifo (any
// case) and anything defined twice. Every such error is a
// *PoolConfigError, which wraps ErrPoolConfig.
func Parse(r io.Reader, name string) (*Pools, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return parsePools(data, name)
}

func parsePools(data []byte, file string) (*Pools, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	p, parse := New(), parseText
	if strings.EqualFold(filepath.Ext(file), ".xml") || bytes.HasPrefix(bytes.TrimSpace(data), []byte("<")) {
		parse = parseXML
	}
	if err := parse(p, data, file); err != nil {
		return nil, err
	}
	return p, nil
}

func parseText(p *Pools, data []byte, file string) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 1
	for ; sc.Scan(); line++ {
		s, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		fail := func(pool, field string, err error) error {
			return &PoolConfigError{File: file, Line: line, Pool: pool, Field: field, Msg: err.Error()}
		}
		if len(f) != 5 {
			return fail("", "", fmt.Errorf("%d fields; want 5: <pool> <fair|fifo> <weight> <minMaps> <minReduces>", len(f)))
		}
		if e, dup := p.pools[f[0]]; dup {
			return fail(f[0], "", fmt.Errorf("already defined on line %d", e.line))
		}
		e := newPoolEntry(f[0], line)
		set := e.setters()
		for i, field := range [...]string{"schedulingMode", "weight", "minMaps", "minReduces"} {
			if err := set[field](f[i+1]); err != nil {
				return fail(f[0], field, err)
			}
		}
		p.pools[f[0]] = e
	}
	if err := sc.Err(); err != nil {
		return &PoolConfigError{File: file, Line: line, Msg: fmt.Sprintf("line unreadable (%v; a line holds at most 64 KiB)", err)}
	}
	return nil
}

// setters returns a parser for each element of an XML <pool>, which are
// also the text format's columns.
func (e *poolEntry) setters() map[string]func(string) error {
	c := &e.cfg
	return map[string]func(string) error{
		"minMaps": setCount(&c.MinMaps), "minReduces": setCount(&c.MinReduces),
		"maxMaps": setCount(&c.MaxMaps), "maxReduces": setCount(&c.MaxReduces),
		"weight": setNonNeg(&c.Weight), "schedulingMode": setMode(&c.Mode),
		"maxRunningJobs":            setCount(&c.MaxRunningJobs),
		"minSharePreemptionTimeout": setNonNeg(&c.MinSharePreemptionTimeout),
	}
}

// setters returns a parser for each global element of <allocations>.
func (p *Pools) setters() map[string]func(string) error {
	return map[string]func(string) error{
		"poolMaxJobsDefault":               setCount(&p.PoolMaxJobsDefault),
		"userMaxJobsDefault":               setCount(&p.UserMaxJobsDefault),
		"fairSharePreemptionTimeout":       setNonNeg(&p.FairSharePreemptionTimeout),
		"defaultMinSharePreemptionTimeout": setNonNeg(&p.DefaultMinSharePreemptionTimeout),
		"defaultPoolSchedulingMode":        setMode(&p.DefaultPoolSchedulingMode),
	}
}

func setCount(dst *int) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return fmt.Errorf("%q is not an integer", s)
		case n < 0:
			return fmt.Errorf("%d is negative", n)
		}
		*dst = n
		return nil
	}
}

// setNonNeg parses a non-negative finite number: a weight or seconds.
func setNonNeg(dst *float64) func(string) error {
	return func(s string) error {
		x, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
			return fmt.Errorf("%q is not a finite number", s)
		case x < 0:
			return fmt.Errorf("%s is negative", s)
		}
		*dst = x
		return nil
	}
}

func setMode(dst *SchedulingMode) func(string) error {
	return func(s string) error {
		switch strings.ToLower(s) {
		case "fair":
			*dst = ModeFair
		case "fifo":
			*dst = ModeFIFO
		default:
			return fmt.Errorf("%q is not fair or fifo", s)
		}
		return nil
	}
}

// xnode is an element of an XML document read by readXML.
type xnode struct {
	name, text string
	line       int // line of the start tag's end
	attr       []xml.Attr
	kids       []*xnode
}

// readXML reads a whole document into a tree whose root stands for the
// document itself.
func readXML(data []byte, file string) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	stack := []*xnode{{}}
	for {
		tok, err := d.Token()
		line, _ := d.InputPos()
		var syn *xml.SyntaxError
		switch {
		case err == io.EOF:
			return stack[0], nil
		case errors.As(err, &syn):
			return nil, &PoolConfigError{File: file, Line: syn.Line, Msg: "malformed XML: " + syn.Msg}
		case err != nil:
			return nil, &PoolConfigError{File: file, Line: line, Msg: "malformed XML: " + err.Error()}
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xnode{name: t.Name.Local, line: line, attr: t.Attr}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.text += string(t)
		}
	}
}

// xmlParser turns an allocation-file tree into Pools.
type xmlParser struct {
	file string
	seen map[string]int // "kind name" → line of definition
}

func (x *xmlParser) fail(n *xnode, pool, field, format string, args ...any) error {
	return &PoolConfigError{File: x.file, Line: n.line, Pool: pool, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// once fails if key was defined before.
func (x *xmlParser) once(n *xnode, pool, field, key string) error {
	if prev, dup := x.seen[key]; dup {
		return x.fail(n, pool, field, "already defined on line %d", prev)
	}
	x.seen[key] = n.line
	return nil
}

// container fails if n holds text besides its child elements.
func (x *xmlParser) container(n *xnode, pool string) error {
	if t := strings.TrimSpace(n.text); t != "" {
		return x.fail(n, pool, n.name, "unexpected text %q", t)
	}
	return nil
}

// leaves parses the children of n, each a text element named in set and
// defined once.
func (x *xmlParser) leaves(n *xnode, pool, key string, set map[string]func(string) error) error {
	for _, f := range n.kids {
		if err := x.leaf(f, pool, key, set); err != nil {
			return err
		}
	}
	return nil
}

func (x *xmlParser) leaf(f *xnode, pool, key string, set map[string]func(string) error) error {
	fn, ok := set[f.name]
	switch {
	case !ok:
		return x.fail(f, pool, f.name, "unknown element in <%s>", key)
	case len(f.kids) > 0:
		return x.fail(f.kids[0], pool, f.name, "unexpected element <%s>", f.kids[0].name)
	}
	if err := x.once(f, pool, f.name, key+"\x00"+pool+"\x00"+f.name); err != nil {
		return err
	}
	if err := fn(strings.TrimSpace(f.text)); err != nil {
		return x.fail(f, pool, f.name, "%v", err)
	}
	return nil
}

func parseXML(p *Pools, data []byte, file string) error {
	doc, err := readXML(data, file)
	if err != nil {
		return err
	}
	x := &xmlParser{file: file, seen: map[string]int{}}
	if len(doc.kids) != 1 || doc.kids[0].name != "allocations" {
		at := &xnode{line: 1}
		if len(doc.kids) > 0 {
			at = doc.kids[len(doc.kids)-1]
		}
		return x.fail(at, "", "", "want a single <allocations> root element")
	}
	alloc, globals := doc.kids[0], p.setters()
	if err := x.container(alloc, ""); err != nil {
		return err
	}
	for _, n := range alloc.kids {
		var err error
		name := nameAttr(n)
		switch {
		case n.name != "pool" && n.name != "user":
			err = x.leaf(n, "", "allocations", globals)
		case name == "":
			err = x.fail(n, "", n.name, "missing name attribute")
		case n.name == "pool": // all checks run; the first error wins
			e := newPoolEntry(name, n.line)
			err = cmp.Or(x.once(n, name, "", "pool "+name), x.container(n, name),
				x.leaves(n, name, "pool", e.setters()))
			p.pools[name] = e
		default:
			v := p.UserMaxJobsDefault
			err = cmp.Or(x.once(n, "", fmt.Sprintf("user %q", name), "user "+name), x.container(n, ""),
				x.leaves(n, "", fmt.Sprintf("user name=%q", name), map[string]func(string) error{"maxRunningJobs": setCount(&v)}))
			if len(n.kids) > 0 {
				p.users[name] = v
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func nameAttr(n *xnode) string {
	for _, a := range n.attr {
		if a.Name.Local == "name" {
			return strings.TrimSpace(a.Value)
		}
	}
	return ""
}
