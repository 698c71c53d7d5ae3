package exec

import (
	"encoding/json"
	"reflect"
	"testing"

	"sojourn/internal/fuzzguard"
	"sojourn/internal/jsondup"
)

// TestFastParse: whatever the fast path decodes, it decodes as
// encoding/json does; and it leaves to encoding/json what it cannot.
func TestFastParse(t *testing.T) {
	var r reply
	if err := r.parse([]byte(`{"query":"job","job":1,"job":2}`)); err == nil || err.Error() != `key "job" given twice (column 24)` {
		t.Errorf("a duplicate key: %v", err)
	}
	for _, c := range []struct {
		line string
		fast bool
	}{
		{`{"actions":[]}`, true},
		{`{}`, true},
		{` { "actions" : [ { "op" : "launch" , "job" : 3 , "kind" : "map" , "task" : 7 } ] } `, true},
		{`{"actions":[{"op":"launch","job":3,"kind":"map","task":7},{"op":"launch_best","job":4,"kind":"reduce","max_locality":"rack-local"}],"busy":false}`, true},
		{`{"query":"pending_map","job":1,"node":-1,"max_locality":"off-rack","actions":[{"op":"kill","job":0,"kind":"reduce","task":2147483647}]}`, true},
		{`{"query":"task","job":1,"kind":"map","task":0,"busy":true}`, true},
		{`{"query":"future","job":0}`, true},
		{`{"actions":[{}]}`, true},
		{`{"query":"job","job":1,"job":2}`, false}, // parse refuses the duplicate
		{`{"actions":[{"op":"kill","op":"launch"}]}`, false},
		{`{"actions":[{"op":"launch","job":3.5}]}`, false},
		{`{"actions":[{"op":"launch","job":2147483648}]}`, false},
		{`{"actions":[{"op":"launch","job":-2147483649}]}`, false},
		{`{"actions":[{"op":"launch","job":07}]}`, false},
		{`{"actions":[{"op":"la\u0075nch","job":1}]}`, false},
		{`{"actions":null}`, false},
		{`{"actions":[{"op":"launch","note":"x"}]}`, false},
		{`{"type":"ready","protocol":1}`, false},
		{`{"actions":[{"op":"launch",`, false},
		{`{"actions":[]} x`, false},
		{`{"busy":tru}`, false},
		{`{"query":"n√de"}`, false},
	} {
		var fast, slow reply
		fast.reset()
		ok := fast.fastParse([]byte(c.line))
		if ok != c.fast {
			t.Errorf("%s: fast path %v, want %v", c.line, ok, c.fast)
			continue
		}
		if !ok {
			continue
		}
		slow.reset()
		if err := json.Unmarshal([]byte(c.line), &slow); err != nil {
			t.Errorf("%s: fast path took a line encoding/json refuses: %v", c.line, err)
			continue
		}
		if (fast.Busy == nil) != (slow.Busy == nil) || fast.Busy != nil && *fast.Busy != *slow.Busy {
			t.Errorf("%s: busy %v, encoding/json %v", c.line, fast.Busy, slow.Busy)
		}
		fast.Busy, slow.Busy, fast.busy = nil, nil, false
		if len(fast.Actions) == 0 && len(slow.Actions) == 0 {
			fast.Actions, slow.Actions = nil, nil
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s:\nfast %+v\njson %+v", c.line, fast, slow)
		}
	}
}

// FuzzReply: any line the child sends is decoded without a panic; the
// fast path decodes exactly what encoding/json does, and a key given
// twice is refused on both.
func FuzzReply(f *testing.F) {
	f.Add(`{"actions":[]}`)
	f.Add(`{"actions":[{"op":"launch","job":1,"kind":"map","task":2}],"query":"pending_map","job":1}`)
	f.Add(`{"type":"ready","protocol":1,"name":"x","options":["a"],"preempts":true}`)
	f.Add(`{"job":1,"job":2}`)
	f.Add(`{"actions":[{"op":"kill","op":"launch"}]}`)
	f.Fuzz(func(t *testing.T, line string) {
		fuzzguard.Within(t, func() {
			var fast, slow reply
			fast.reset()
			ok := fast.fastParse([]byte(line))
			err := slow.parse([]byte(line))
			if ok && err != nil {
				t.Fatalf("fast path accepts %q, parse refuses it: %v", line, err)
			}
			if ok {
				slow.reset()
				if json.Unmarshal([]byte(line), &slow) != nil {
					return // json refuses what the fast path reads: parse took the fast path
				}
				if fast.Busy != nil && slow.Busy != nil && *fast.Busy == *slow.Busy {
					fast.Busy, slow.Busy = nil, nil
				}
				fast.busy, slow.busy = false, false
				if len(fast.Actions) == 0 && len(slow.Actions) == 0 {
					fast.Actions, slow.Actions = nil, nil
				}
				if !reflect.DeepEqual(fast, slow) {
					t.Fatalf("%q: fast path %+v, encoding/json %+v", line, fast, slow)
				}
			}
			if k, _, _ := jsondup.Find([]byte(line)); k != "" && err == nil {
				t.Fatalf("%q: key %q given twice, accepted", line, k)
			}
		})
	})
}
