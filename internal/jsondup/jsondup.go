// Package jsondup finds a key given twice in one JSON object, which
// encoding/json silently resolves to the last value: every JSON reader of
// the project refuses such a document.
package jsondup

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Find finds the first key given twice in one JSON object of
// data, which encoding/json would silently resolve to the last value. It
// returns "" for a valid document without duplicates, and ignores syntax
// errors (decode reports them).
func Find(data []byte) (key string, line, col int) {
	d := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys   map[string]bool
		object bool
		expect bool // the next string token is a key
	}
	var stack []frame
	for {
		tok, err := d.Token()
		if err != nil {
			return "", 0, 0
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top >= 0 && stack[top].object {
					stack[top].expect = true // the container was a value
				}
				stack = append(stack, frame{keys: map[string]bool{}, object: t == '{', expect: t == '{'})
			default:
				stack = stack[:top]
				if top-1 >= 0 && stack[top-1].object {
					stack[top-1].expect = true
				}
			}
		default:
			if top < 0 || !stack[top].object {
				continue
			}
			if stack[top].expect {
				k, _ := t.(string)
				if stack[top].keys[k] {
					q, _ := json.Marshal(k) // the key as written, near enough
					l, c := position(data, max(d.InputOffset()-int64(len(q)), 0))
					return k, l, c
				}
				stack[top].keys[k] = true
				stack[top].expect = false
			} else {
				stack[top].expect = true
			}
		}
	}
}

// Check is Find as an error naming name and the key's line and column.
func Check(name string, data []byte) error {
	if k, line, col := Find(data); k != "" {
		return fmt.Errorf("%s: line %d, column %d: key %q given twice in one object", name, line, col, k)
	}
	return nil
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
