package clusterfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Load reads the cluster file at path. Its errors begin with path.
func Load(path string) (*Cluster, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: path, Msg: "cannot open", Err: err}
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a cluster file from r; name is the file's name, which
// begins every error. Groups are not expanded, and a count is checked
// against MaxNodes as soon as it is read: the memory Parse takes grows
// with the file's length, never with its counts.
func Parse(r io.Reader, name string) (*Cluster, error) {
	p := &parser{file: name, def: Node{
		MemoryMB:    DefaultMemoryMB,
		Vcores:      DefaultVcores,
		MapSlots:    DefaultMapSlots,
		ReduceSlots: DefaultReduceSlots,
		Speed:       DefaultSpeed,
	}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	for sc.Scan() {
		p.line++
		if err := p.parseLine(sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &Error{File: name, Line: p.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLineBytes)}
		}
		msg := "cannot read"
		if p.line > 0 {
			msg = fmt.Sprintf("read error after line %d", p.line)
		}
		return nil, &Error{File: name, Msg: msg, Err: err}
	}
	if len(p.c.Groups) == 0 {
		return nil, &Error{File: name, Msg: "no nodes: want at least one node or nodes line, or a line <memoryGB> <mapSlots> <reduceSlots>"}
	}
	return &p.c, nil
}

type parser struct {
	file    string
	line    int
	c       Cluster
	def     Node // what a node line's absent keys take
	started bool // a default or node line has been read
	total   int  // nodes so far
}

func (p *parser) errorf(key, format string, args ...any) error {
	return &Error{File: p.file, Line: p.line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

// lineKind is what a line with keys describes.
type lineKind uint8

const (
	kindDefault lineKind = iota // default key=value...
	kindNode                    // node key=value...
	kindNodes                   // nodes count=N key=value...
)

func (p *parser) parseLine(s string) error {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	f := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f'
	})
	if len(f) == 0 {
		return nil
	}
	switch f[0] {
	case "resources":
		return p.resources(f[1:])
	case "default":
		return p.keys(kindDefault, f[1:])
	case "node":
		return p.keys(kindNode, f[1:])
	case "nodes":
		return p.keys(kindNodes, f[1:])
	}
	if c := f[0][0]; c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' {
		return p.legacy(f)
	}
	return p.errorf("", "unknown keyword %q: want resources, default, node, nodes, or three integers <memoryGB> <mapSlots> <reduceSlots>", f[0])
}

func (p *parser) resources(names []string) error {
	switch {
	case p.c.Extra != nil:
		return p.errorf("resources", "resources given twice: want one resources line")
	case p.started:
		return p.errorf("resources", "resources after a default or node line: want it before them")
	case len(names) == 0:
		return p.errorf("resources", "resources without a name: want resources NAME...")
	case len(names) > MaxExtraTypes:
		return p.errorf("resources", "resources with %d names: want at most %d", len(names), MaxExtraTypes)
	}
	for i, n := range names {
		if msg := checkResourceName(n); msg != "" {
			return p.errorf("resources", "resource %q: %s", n, msg)
		}
		if slices.Contains(names[:i], n) {
			return p.errorf("resources", "resource %q declared twice", n)
		}
	}
	p.c.Extra = slices.Clone(names)
	p.def.Extra = make([]int64, len(names))
	return nil
}

// keys reads the key=value fields of a default, node or nodes line.
func (p *parser) keys(kind lineKind, fields []string) error {
	p.started = true
	n := p.def
	n.Extra = slices.Clone(p.def.Extra)
	n.Line = p.line
	count := int64(1)
	seen := make(map[string]bool, len(fields))
	for _, tok := range fields {
		k, v, ok := strings.Cut(tok, "=")
		if !ok || k == "" {
			return p.errorf("", "%q: want key=value, without spaces", tok)
		}
		if seen[k] {
			return p.errorf(k, "%s given twice: want each key at most once on a line", k)
		}
		seen[k] = true
		bad := func(want string) error { return p.errorf(k, "%s=%q: %s", k, v, want) }
		var valid bool
		switch k {
		case "count":
			if kind != kindNodes {
				return p.errorf(k, "count on a %s line: want it on a nodes line only", kindWord(kind))
			}
			if count, valid = parseInt(v, 1, MaxNodes); !valid {
				return bad(wantInt(1, MaxNodes))
			}
		case "name":
			if kind == kindDefault {
				return p.errorf(k, "name on a default line: want it on a node or nodes line only")
			}
			if msg := checkName(v); msg != "" {
				return bad(msg)
			}
			n.Name = v
		case "rack":
			if msg := checkName(v); msg != "" {
				return bad(msg)
			}
			n.Rack = v
		case "memory":
			var msg string
			if n.MemoryMB, msg = parseSize(v); msg != "" {
				return bad(msg)
			}
		case "vcores":
			if n.Vcores, valid = parseInt(v, 1, MaxVcores); !valid {
				return bad(wantInt(1, MaxVcores))
			}
		case "map-slots", "reduce-slots":
			s, ok := parseInt(v, 0, MaxSlots)
			if !ok {
				return bad(wantInt(0, MaxSlots))
			}
			if k == "map-slots" {
				n.MapSlots = int(s)
			} else {
				n.ReduceSlots = int(s)
			}
		case "speed":
			if n.Speed, valid = parseSpeed(v); !valid {
				return bad(wantSpeed)
			}
		default:
			i := slices.Index(p.c.Extra, k)
			if i < 0 {
				return p.unknownKey(kind, k)
			}
			if n.Extra[i], valid = parseInt(v, 0, MaxExtra); !valid {
				return bad(wantInt(0, MaxExtra))
			}
		}
	}
	if kind == kindDefault {
		n.Line = 0
		p.def = n
		return nil
	}
	if kind == kindNodes && !seen["count"] {
		return p.errorf("count", "nodes line without count: want nodes count=N")
	}
	return p.add(int(count), n)
}

func kindWord(k lineKind) string {
	return [...]string{"default", "node", "nodes"}[k]
}

func (p *parser) unknownKey(kind lineKind, k string) error {
	var keys []string
	if kind == kindNodes {
		keys = append(keys, "count")
	}
	if kind != kindDefault {
		keys = append(keys, "name")
	}
	keys = append(keys, "rack", "memory", "vcores", "map-slots", "reduce-slots", "speed")
	keys = append(keys, p.c.Extra...)
	hint := ""
	if p.c.Extra == nil && checkResourceName(k) == "" {
		hint = " (an extra resource type needs a resources line before the node lines)"
	}
	return p.errorf(k, "unknown key %q on a %s line: want %s or %s%s",
		k, kindWord(kind), strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1], hint)
}

// legacy reads a line of the older per-machine format:
// <memoryGB> <mapSlots> <reduceSlots>, memory in GiB.
func (p *parser) legacy(f []string) error {
	p.started = true
	if len(f) != 3 {
		return p.errorf("", "%d fields: want three integers <memoryGB> <mapSlots> <reduceSlots>", len(f))
	}
	gb, ok := parseInt(f[0], 1, MaxLegacyGiB)
	if !ok {
		return p.errorf("memoryGB", "memoryGB=%q: %s", f[0], wantInt(1, MaxLegacyGiB))
	}
	maps, ok := parseInt(f[1], 0, MaxSlots)
	if !ok {
		return p.errorf("mapSlots", "mapSlots=%q: %s", f[1], wantInt(0, MaxSlots))
	}
	reduces, ok := parseInt(f[2], 0, MaxSlots)
	if !ok {
		return p.errorf("reduceSlots", "reduceSlots=%q: %s", f[2], wantInt(0, MaxSlots))
	}
	n := p.def
	n.Extra = slices.Clone(p.def.Extra)
	n.Line = p.line
	n.MemoryMB = gb << 10
	n.MapSlots, n.ReduceSlots = int(maps), int(reduces)
	return p.add(1, n)
}

func (p *parser) add(count int, n Node) error {
	if count > MaxNodes-p.total {
		return p.errorf("count", "%d nodes in all: want at most %d", p.total+count, MaxNodes)
	}
	p.total += count
	p.c.Groups = append(p.c.Groups, Group{Count: count, Node: n})
	return nil
}
