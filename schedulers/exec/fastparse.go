package exec

// fastParse decodes the lines clients usually write during a decision
// without reflection: an object whose values are integers, booleans,
// strings without escapes, and, under "actions", an array of flat objects
// of the same kinds. It reports false for any other shape (an unknown key,
// an escape, a float, a syntax error…); parse then leaves the line to
// encoding/json, which decodes the rest and words the errors. r must be
// reset.
func (r *reply) fastParse(line []byte) bool {
	p := scanner{b: line}
	if !p.byte('{') {
		return false
	}
	if p.byte('}') {
		return p.end()
	}
	var seen uint16 // keys given, so that a duplicate goes to parse's refusal
	for {
		key, ok := p.str()
		if !ok || !p.byte(':') || !once(&seen, key, "actions", "query", "kind", "max_locality", "job", "node", "task", "busy") {
			return false
		}
		switch string(key) {
		case "actions":
			if !r.fastActions(&p) {
				return false
			}
		case "query":
			s, ok := p.str()
			if !ok {
				return false
			}
			r.Query = intern(s)
		case "kind":
			s, ok := p.str()
			if !ok {
				return false
			}
			r.Kind = intern(s)
		case "max_locality":
			s, ok := p.str()
			if !ok {
				return false
			}
			r.MaxLocality = intern(s)
		case "job", "node", "task":
			v, ok := p.int32()
			if !ok {
				return false
			}
			switch key[0] {
			case 'j':
				r.Job = v
			case 'n':
				r.Node = v
			default:
				r.Task = v
			}
		case "busy":
			v, ok := p.bool()
			if !ok {
				return false
			}
			r.busy = v
			r.Busy = &r.busy
		default:
			return false
		}
		if p.byte('}') {
			return p.end()
		}
		if !p.byte(',') {
			return false
		}
	}
}

// fastActions decodes the array of actions.
func (r *reply) fastActions(p *scanner) bool {
	if !p.byte('[') {
		return false
	}
	r.Actions = r.Actions[:0]
	if p.byte(']') {
		return true
	}
	for {
		a := action{Job: -1, Task: -1}
		if !p.byte('{') {
			return false
		}
		if !p.byte('}') {
			var seen uint16
			for {
				key, ok := p.str()
				if !ok || !p.byte(':') || !once(&seen, key, "op", "kind", "max_locality", "job", "task") {
					return false
				}
				switch string(key) {
				case "op", "kind", "max_locality":
					s, ok := p.str()
					if !ok {
						return false
					}
					switch key[0] {
					case 'o':
						a.Op = intern(s)
					case 'k':
						a.Kind = intern(s)
					default:
						a.MaxLocality = intern(s)
					}
				case "job", "task":
					v, ok := p.int32()
					if !ok {
						return false
					}
					if key[0] == 'j' {
						a.Job = v
					} else {
						a.Task = v
					}
				default:
					return false
				}
				if p.byte('}') {
					break
				}
				if !p.byte(',') {
					return false
				}
			}
		}
		r.Actions = append(r.Actions, a)
		if p.byte(']') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// once marks key, one of keys, in seen; false if it was already there.
// A key not among keys is left for the caller to refuse.
func once(seen *uint16, key []byte, keys ...string) bool {
	for i, k := range keys {
		if string(key) == k {
			if *seen&(1<<i) != 0 {
				return false
			}
			*seen |= 1 << i
			return true
		}
	}
	return true
}

// intern returns the protocol's names without allocating.
func intern(b []byte) string {
	switch string(b) {
	case "launch":
		return "launch"
	case "launch_best":
		return "launch_best"
	case "kill":
		return "kill"
	case "suspend":
		return "suspend"
	case "resume":
		return "resume"
	case "map":
		return "map"
	case "reduce":
		return "reduce"
	case "node-local":
		return "node-local"
	case "rack-local":
		return "rack-local"
	case "off-rack":
		return "off-rack"
	case "pending_map":
		return "pending_map"
	case "pending_reduce":
		return "pending_reduce"
	}
	return string(b)
}

// scanner reads JSON tokens from b, skipping white space before each.
type scanner struct {
	b []byte
	i int
}

func (p *scanner) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// byte consumes c if it comes next.
func (p *scanner) byte(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end reports whether nothing but white space is left.
func (p *scanner) end() bool {
	p.space()
	return p.i == len(p.b)
}

// str reads a string with no escape and no control character.
func (p *scanner) str() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return p.b[start : p.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// int32 reads an integer that fits an int32 (no fraction, no exponent).
func (p *scanner) int32() (int32, bool) {
	p.space()
	neg := p.i < len(p.b) && p.b[p.i] == '-'
	if neg {
		p.i++
	}
	start := p.i
	var v int64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		v = v*10 + int64(p.b[p.i]-'0')
		if v > 1<<31 {
			return 0, false
		}
		p.i++
	}
	n := p.i - start
	if n == 0 || (n > 1 && p.b[start] == '0') {
		return 0, false
	}
	if p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return 0, false
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 || v < -1<<31 {
		return 0, false
	}
	return int32(v), true
}

// bool reads true or false.
func (p *scanner) bool() (bool, bool) {
	p.space()
	rest := p.b[p.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		p.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}
