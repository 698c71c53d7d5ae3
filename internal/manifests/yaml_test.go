package manifests

import (
	"fmt"
	"strconv"
	"strings"
)

// A YAML reader for the subset Kubernetes manifests are commonly written
// in, so that the test needs no dependency: one document of block
// mappings and block sequences (a sequence may sit at its key's
// indentation, and an item may open a mapping, "- name: x"), flow
// sequences and mappings ([a, b], {k: v}, possibly over several lines),
// plain, single- and double-quoted scalars, and comments. Anchors, tags,
// block scalars (| and >), several documents and tabs are refused, as is
// a key given twice. Values are map[string]any, []any, string, int64 and
// bool (plain true and false); null and ~ are nil.

type line struct {
	no     int // 1-based, for errors
	indent int
	text   string // without indentation and comment
}

type parser struct {
	lines []line
	pos   int
}

// parseYAML parses one document.
func parseYAML(src string) (any, error) {
	lines, err := splitLines(src)
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("empty document")
	}
	p := &parser{lines: lines}
	v, err := p.block(lines[0].indent)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.lines) {
		l := p.lines[p.pos]
		return nil, fmt.Errorf("line %d: unexpected %q (indentation %d)", l.no, l.text, l.indent)
	}
	return v, nil
}

// splitLines drops comments and blank lines, measures indentation and
// joins the lines of a flow collection left open at a line's end.
func splitLines(src string) ([]line, error) {
	var out []line
	depth := 0 // open [ and { carried over from the previous lines
	for i, raw := range strings.Split(src, "\n") {
		no := i + 1
		raw = strings.TrimRight(raw, " \r")
		body := strings.TrimLeft(raw, " ")
		if strings.HasPrefix(body, "\t") {
			return nil, fmt.Errorf("line %d: tab in indentation", no)
		}
		text, d, err := stripComment(body, no)
		if err != nil {
			return nil, err
		}
		text = strings.TrimRight(text, " ")
		if depth > 0 {
			if text != "" {
				out[len(out)-1].text += " " + text
			}
			depth += d
			continue
		}
		if text == "" {
			continue
		}
		switch {
		case text == "---", text == "...", strings.HasPrefix(text, "--- "):
			if len(out) > 0 {
				return nil, fmt.Errorf("line %d: a second document", no)
			}
			continue
		case strings.HasPrefix(text, "%"):
			return nil, fmt.Errorf("line %d: directives are not supported", no)
		}
		out = append(out, line{no: no, indent: len(raw) - len(body), text: text})
		depth += d
	}
	if depth != 0 {
		return nil, fmt.Errorf("unclosed flow collection")
	}
	return out, nil
}

// stripComment cuts a comment (# at the start or after a space, outside
// quotes) and returns the change in flow nesting depth on the line.
func stripComment(s string, no int) (string, int, error) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				if quote == '\'' && i+1 < len(s) && s[i+1] == '\'' {
					i++ // '' inside single quotes
				} else {
					quote = 0
				}
			}
		case c == '"' || c == '\'':
			if i == 0 || strings.ContainsRune(" [{,:-", rune(s[i-1])) {
				quote = c
			}
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i], depth, nil
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
	}
	if quote != 0 {
		return "", 0, fmt.Errorf("line %d: unterminated quoted scalar", no)
	}
	return s, depth, nil
}

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// block parses the mapping or sequence starting at the current line, whose
// indentation is indent.
func (p *parser) block(indent int) (any, error) {
	l := p.lines[p.pos]
	if l.indent != indent {
		return nil, fmt.Errorf("line %d: indentation %d, want %d", l.no, l.indent, indent)
	}
	if isSeqItem(l.text) {
		return p.sequence(indent)
	}
	if _, _, ok := splitKey(l.text); ok {
		return p.mapping(indent)
	}
	// A lone scalar or flow collection on its own line.
	p.pos++
	return inline(l.text, l.no)
}

// splitKey splits "key: value" or "key:"; the key is a plain or quoted
// scalar.
func splitKey(text string) (key, rest string, ok bool) {
	if text == "" || strings.ContainsRune("[{&*!|>%@`", rune(text[0])) || isSeqItem(text) {
		return "", "", false
	}
	if text[0] == '"' || text[0] == '\'' {
		s, n, err := quoted(text, 0)
		if err != nil || n >= len(text) || text[n] != ':' || (n+1 < len(text) && text[n+1] != ' ') {
			return "", "", false
		}
		return s, strings.TrimSpace(text[n+1:]), true
	}
	if k, r, found := strings.Cut(text, ": "); found {
		return strings.TrimSpace(k), strings.TrimSpace(r), true
	}
	if k, found := strings.CutSuffix(text, ":"); found {
		return strings.TrimSpace(k), "", true
	}
	return "", "", false
}

func (p *parser) mapping(indent int) (any, error) {
	m := map[string]any{}
	for p.pos < len(p.lines) && p.lines[p.pos].indent == indent {
		l := p.lines[p.pos]
		if isSeqItem(l.text) {
			return nil, fmt.Errorf("line %d: a sequence item inside a mapping", l.no)
		}
		key, rest, ok := splitKey(l.text)
		if !ok {
			return nil, fmt.Errorf("line %d: want \"key: value\", got %q", l.no, l.text)
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("line %d: key %q given twice", l.no, key)
		}
		p.pos++
		var v any
		var err error
		switch {
		case rest != "":
			v, err = inline(rest, l.no)
		case p.pos < len(p.lines) && p.lines[p.pos].indent > indent:
			v, err = p.block(p.lines[p.pos].indent)
		case p.pos < len(p.lines) && p.lines[p.pos].indent == indent && isSeqItem(p.lines[p.pos].text):
			v, err = p.sequence(indent) // a sequence at its key's indentation
		}
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
	if p.pos < len(p.lines) && p.lines[p.pos].indent > indent {
		l := p.lines[p.pos]
		return nil, fmt.Errorf("line %d: unexpected indentation %d", l.no, l.indent)
	}
	return m, nil
}

func (p *parser) sequence(indent int) (any, error) {
	s := []any{}
	for p.pos < len(p.lines) && p.lines[p.pos].indent == indent && isSeqItem(p.lines[p.pos].text) {
		l := p.lines[p.pos]
		item := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		switch {
		case item == "":
			p.pos++
			if p.pos >= len(p.lines) || p.lines[p.pos].indent <= indent {
				s = append(s, nil)
				continue
			}
			v, err := p.block(p.lines[p.pos].indent)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		default:
			if _, _, ok := splitKey(item); ok || isSeqItem(item) {
				// "- key: value" opens a mapping (or "- - x" a sequence)
				// at the item's column: reread this line from there.
				col := indent + (len(l.text) - len(item))
				p.lines[p.pos] = line{no: l.no, indent: col, text: item}
				v, err := p.block(col)
				if err != nil {
					return nil, err
				}
				s = append(s, v)
				continue
			}
			v, err := inline(item, l.no)
			if err != nil {
				return nil, err
			}
			p.pos++
			s = append(s, v)
		}
	}
	return s, nil
}

// inline parses a value written on one line: a flow collection or a
// scalar.
func inline(text string, no int) (any, error) {
	f := &flow{s: text, no: no}
	v, err := f.value(false)
	if err != nil {
		return nil, err
	}
	f.space()
	if f.i != len(f.s) {
		return nil, fmt.Errorf("line %d: unexpected %q after a value", no, f.s[f.i:])
	}
	return v, nil
}

// flow reads flow collections and scalars.
type flow struct {
	s  string
	i  int
	no int
}

func (f *flow) space() {
	for f.i < len(f.s) && f.s[f.i] == ' ' {
		f.i++
	}
}

func (f *flow) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d, column %d: %s", f.no, f.i+1, fmt.Sprintf(format, a...))
}

// value reads one value; inFlow says it is inside [] or {}, where a plain
// scalar ends at , ] } and ": ".
func (f *flow) value(inFlow bool) (any, error) {
	f.space()
	if f.i >= len(f.s) {
		return nil, f.errorf("missing value")
	}
	switch c := f.s[f.i]; c {
	case '[':
		f.i++
		out := []any{}
		for {
			f.space()
			if f.i < len(f.s) && f.s[f.i] == ']' {
				f.i++
				return out, nil
			}
			v, err := f.value(true)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			if err := f.sep(']'); err != nil {
				return nil, err
			}
		}
	case '{':
		f.i++
		out := map[string]any{}
		for {
			f.space()
			if f.i < len(f.s) && f.s[f.i] == '}' {
				f.i++
				return out, nil
			}
			k, err := f.value(true)
			if err != nil {
				return nil, err
			}
			key, ok := k.(string)
			if !ok {
				return nil, f.errorf("a mapping key must be a string, got %v", k)
			}
			f.space()
			if f.i >= len(f.s) || f.s[f.i] != ':' {
				return nil, f.errorf("want ':' after key %q", key)
			}
			f.i++
			v, err := f.value(true)
			if err != nil {
				return nil, err
			}
			if _, dup := out[key]; dup {
				return nil, f.errorf("key %q given twice", key)
			}
			out[key] = v
			if err := f.sep('}'); err != nil {
				return nil, err
			}
		}
	case '"', '\'':
		s, n, err := quoted(f.s, f.i)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", f.no, err)
		}
		f.i = n
		return s, nil
	case '&', '*', '!', '|', '>', '%', '@', '`':
		return nil, f.errorf("%q is not supported", c)
	}
	start := f.i
	for f.i < len(f.s) {
		c := f.s[f.i]
		if inFlow && (c == ',' || c == ']' || c == '}' || c == '[' || c == '{') ||
			c == ':' && (f.i+1 == len(f.s) || f.s[f.i+1] == ' ') {
			break
		}
		f.i++
	}
	return plain(strings.TrimRight(f.s[start:f.i], " ")), nil
}

// sep reads the ',' between flow items or the closing bracket, which it
// leaves for the caller.
func (f *flow) sep(end byte) error {
	f.space()
	switch {
	case f.i < len(f.s) && f.s[f.i] == ',':
		f.i++
		return nil
	case f.i < len(f.s) && f.s[f.i] == end:
		return nil
	}
	return f.errorf("want ',' or %q", end)
}

// plain types a plain scalar: integers, booleans and null; the rest are
// strings.
func plain(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null", "~", "":
		return nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	return s
}

// quoted reads the quoted scalar at s[i] and returns it and the index
// after its closing quote.
func quoted(s string, i int) (string, int, error) {
	q := s[i]
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			b.WriteByte('\'')
			j++
		case c == q:
			if q == '"' {
				u, err := strconv.Unquote(s[i : j+1])
				if err != nil {
					return "", 0, fmt.Errorf("bad double-quoted scalar %s: %v", s[i:j+1], err)
				}
				return u, j + 1, nil
			}
			return b.String(), j + 1, nil
		case c == '\\' && q == '"':
			j++
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated quoted scalar %s", s[i:])
}
