package exec

import (
	"strings"
	"testing"

	"sojourn/replay"
)

// TestName: the results of an external policy carry its name option, or
// else the name it declares when it starts: "exec" if none, with exec-
// before it if another policy has it; a declared name that cannot label
// results fails the run, and a name option that cannot, or that another
// policy has, is refused before anything starts.
func TestName(t *testing.T) {
	builtin := func(n string) bool { return n == "sjf" || n == "fair" }
	for _, c := range []struct {
		declares, option string
		want             string // the name after the run; "" if the run fails
		err              string
	}{
		{declares: "mine", want: "mine"},
		{declares: "", want: "exec"},
		{declares: "sjf", want: "exec-sjf"},
		{declares: "exec", want: "exec-exec"},
		{declares: "sjf", option: "sjf-py", want: "sjf-py"},
		{declares: "my policy", option: "mine", want: "mine"},
		{declares: "my policy", err: `the policy declares the name "my policy", which cannot label results`},
		{declares: "../up", err: `the policy declares the name "../up"`},
		{declares: strings.Repeat("x", 65), err: "at most 64"},
	} {
		t.Run(c.declares+"/"+c.option, func(t *testing.T) {
			t.Setenv(clientNameEnv, c.declares)
			opts := map[string]string{}
			if c.option != "" {
				opts["name"] = c.option
			}
			x, _ := build(t, "named", opts)
			if err := x.Reserve(builtin); err != nil {
				t.Fatal(err)
			}
			if before := x.Name(); before != Name && before != c.option {
				t.Errorf("before the run: %q, want %q or the option", before, Name)
			}
			_, err := replay.Run(small(t), x, cluster)
			if cerr := x.Close(); err == nil {
				err = cerr
			}
			checkReaped(t, x)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := x.Name(); got != c.want {
				t.Errorf("name %q, want %q", got, c.want)
			}
		})
	}
	for _, c := range []struct{ name, err string }{
		{"my policy", `exec.name: "my policy" is not a name`},
		{"a/b", `exec.name: "a/b" is not a name`},
		{".hidden", `exec.name: ".hidden" is not a name`},
		{"exec", `exec.name: "exec" is the built-in policy's name`},
	} {
		if _, err := Policy.Build(map[string]string{"command": "true", "name": c.name}); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("name %q: error %v, want %q", c.name, err, c.err)
		}
	}
	s, err := Policy.Build(map[string]string{"command": "true", "name": "fair"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.(*Exec).Reserve(builtin); err == nil || !strings.Contains(err.Error(), `exec.name: "fair" is a built-in policy's name`) {
		t.Errorf("a built-in's name: error %v", err)
	}
}
