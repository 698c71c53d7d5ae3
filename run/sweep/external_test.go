package sweep

import (
	"testing"
)

// TestExternalPolicies: a sweep file names external policies in exec;
// each is a policy of its own in the cells, run by exec with its command
// and name, its options set and swept as NAME.option, only on its cells.
func TestExternalPolicies(t *testing.T) {
	p := load(t, `{"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}],
		"policies": ["fifo", "sjf-py", "lifo"],
		"exec": {"sjf-py": "python3 sjf.py", "lifo": "python3 'my lifo.py'"},
		"parameters": {"sjf-py.args": ["size=work", "size=tasks"]},
		"fixed": {"lifo.timeout": 5}}`)
	want := []struct {
		label string
		opts  map[string]string
	}{
		{"a fifo seed=1", map[string]string{}},
		{"a sjf-py sjf-py.args=size=work seed=1", map[string]string{"command": "python3 sjf.py", "name": "sjf-py", "args": "size=work"}},
		{"a sjf-py sjf-py.args=size=tasks seed=1", map[string]string{"command": "python3 sjf.py", "name": "sjf-py", "args": "size=tasks"}},
		{"a lifo seed=1", map[string]string{"command": "python3 'my lifo.py'", "name": "lifo", "timeout": "5"}},
	}
	if len(p.Cells) != len(want) {
		t.Fatalf("%d cells, want %d", len(p.Cells), len(want))
	}
	for i, w := range want {
		c := p.Cells[i]
		if Label(c) != w.label || len(c.Options) != len(w.opts) {
			t.Errorf("cell %d: %s %v, want %s %v", i, Label(c), c.Options, w.label, w.opts)
			continue
		}
		for k, v := range w.opts {
			if c.Options[k] != v {
				t.Errorf("cell %d: option %s %q, want %q", i, k, c.Options[k], v)
			}
		}
		if wantPolicy := map[bool]string{true: "fifo", false: "exec"}[i == 0]; c.Policy != wantPolicy {
			t.Errorf("cell %d: policy %s, want %s", i, c.Policy, wantPolicy)
		}
	}
}

// TestBadExternalPolicies: mistakes in a sweep file's exec give one line
// naming the file and the field.
func TestBadExternalPolicies(t *testing.T) {
	const w = `"name": "x", "workloads": [{"name": "a", "profile": "fb2009", "jobs": 3}]`
	for _, c := range []struct{ name, text, want string }{
		{"a built-in's name", `{` + w + `, "policies": ["fifo", "sjf"], "exec": {"sjf": "python3 sjf.py"}}`,
			`exec.sjf: "sjf" is a built-in policy's name; choose another`},
		{"a built-in's name in capitals", `{` + w + `, "policies": ["FIFO"], "exec": {"FIFO": "python3 fifo.py"}}`,
			`exec.FIFO: "FIFO" is a built-in policy's name`},
		{"not a name", `{` + w + `, "policies": ["my lifo"], "exec": {"my lifo": "python3 lifo.py"}}`,
			`exec.my lifo: "my lifo" is not a name`},
		{"not listed", `{` + w + `, "policies": ["fifo"], "exec": {"lifo": "python3 lifo.py"}}`, "exec.lifo: not in policies"},
		{"no command", `{` + w + `, "policies": ["lifo"], "exec": {"lifo": " "}}`, `exec.lifo: " " is not a command line`},
		{"unclosed quote", `{` + w + `, "policies": ["lifo"], "exec": {"lifo": "python3 'lifo.py"}}`, `exec.lifo: "python3 'lifo.py" is not a command line`},
		{"its command as an option", `{` + w + `, "policies": ["lifo"], "exec": {"lifo": "python3 lifo.py"}, "parameters": {"lifo.command": ["python3 b.py"]}}`,
			"parameters.lifo.command[0]: the external policy lifo has its name and command from exec.lifo"},
		{"an option exec lacks", `{` + w + `, "policies": ["lifo"], "exec": {"lifo": "python3 lifo.py"}, "fixed": {"lifo.alpha": 1}}`,
			`fixed.lifo.alpha: lifo has no option "alpha" (options: args, timeout)`},
		{"a bad option value", `{` + w + `, "policies": ["lifo"], "exec": {"lifo": "python3 lifo.py"}, "fixed": {"lifo.timeout": 0}}`,
			"exec.timeout: 0, want seconds > 0"},
	} {
		checkLoadError(t, c.name, c.text, c.want)
	}
}
