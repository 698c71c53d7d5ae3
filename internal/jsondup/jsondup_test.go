package jsondup

import "testing"

func TestFind(t *testing.T) {
	for _, c := range []struct {
		doc       string
		key       string
		line, col int
	}{
		{`{"a": 1, "b": {"a": 2}}`, "", 0, 0},
		{`{"a": 1,` + "\n" + ` "a": 2}`, "a", 2, 2},
		{`[{"x": [1, {"y": 1, "y": 2}]}]`, "y", 1, 21},
		{`{"a": {"b": 1}, "a": 3}`, "a", 1, 17},
		{`{"a": [1, 2], "c": 1, "c": {}}`, "c", 1, 23},
		{`{"a": `, "", 0, 0}, // a syntax error is the decoder's to report
	} {
		k, l, col := Find([]byte(c.doc))
		if k != c.key || l != c.line || col != c.col {
			t.Errorf("%s: %q at %d:%d, want %q at %d:%d", c.doc, k, l, col, c.key, c.line, c.col)
		}
	}
}
