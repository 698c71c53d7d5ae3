package yarnfair

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
	"sojourn/replay/replaytest"
)

func TestParseAllocation(t *testing.T) {
	a, err := ParseAllocation(strings.NewReader("# prod and dev\nprod.etl policy=fifo max-running-apps=5\nroot.prod weight=2 min=20480,10 max=81920,40\n\ndev policy=fair\n"), "f.conf")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, q := range a.Queues {
		paths = append(paths, q.Path)
	}
	if got := strings.Join(paths, " "); got != "root root.prod root.prod.etl root.dev" {
		t.Fatalf("queues %s", got)
	}
	prod, etl := a.Queues[1], a.Queues[2]
	if prod.Weight != 2 || prod.Min[0] != 20480 || prod.Min[1] != 10 || !prod.HasMax || prod.Max[0] != 81920 || prod.Line != 3 {
		t.Errorf("root.prod: %+v", prod)
	}
	if etl.Policy != "fifo" || etl.MaxApps != 5 || etl.Weight != 1 || etl.HasMax {
		t.Errorf("root.prod.etl: %+v", etl)
	}
	for _, c := range []struct{ text, want string }{
		{"a weight=0\n", "f.conf:1: root.a: weight"},
		{"a\n\na\n", "f.conf:3: queue root.a declared again (first on line 1)"},
		{"a min=1024\n", "f.conf:1: root.a: min \"1024\": want MiB,vcores"},
		{"a min=2048,2 max=1024,2\n", "f.conf:1: root.a: min 2048,2 exceeds max 1024,2"},
		{"a policy=lottery\n", "policy \"lottery\""},
		{"a colour=red\n", "unknown setting \"colour\""},
		{"a weight\n", "\"weight\" is not key=value"},
		{"root weight=2\n", "f.conf:1: root takes only policy and max-running-apps"},
		{"a..b\n", "queue name \"root.a..b\""},
		{"a weight=1 weight=2\n", "weight given twice"},
		{"a max-running-apps=0\n", "max-running-apps \"0\""},
	} {
		_, err := ParseAllocation(strings.NewReader(c.text), "f.conf")
		if err == nil || !errors.Is(err, ErrAllocation) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}

// The policies' places: fifo on a parent and drf below a fair parent are
// errors naming the line; the policy option's fifo leaves parents fair.
func TestQueuePolicies(t *testing.T) {
	for _, c := range []struct{ text, opt, want string }{
		{"prod policy=fifo\nprod.etl\n", "fair", "q.conf:1: policy fifo is for leaf queues only"},
		{"prod policy=drf\n", "fair", "q.conf:1: policy drf under root, whose policy is fair"},
		{"default.x\n", "fair", "root.default is a parent queue"},
	} {
		path := replaytest.WriteFile(t, "q.conf", c.text)
		_, err := Policy.Build(map[string]string{"queues": path, "policy": c.opt})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.text, err, c.want)
		}
	}
	path := replaytest.WriteFile(t, "q.conf", "root policy=drf\nprod policy=drf\nprod.etl policy=fair\n")
	if _, err := Policy.Build(map[string]string{"queues": path}); err != nil {
		t.Errorf("drf root with a drf child and a fair grandchild: %v", err)
	}
	s, err := Policy.Build(map[string]string{"queues": replaytest.WriteFile(t, "q.conf", "prod.etl\n"), "policy": "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	y := s.(*YARNFair)
	if y.byPath["root.prod"].pol != polFair || y.byPath["root.prod.etl"].pol != polFIFO || y.root.pol != polFair {
		t.Errorf("policy fifo: root %s, prod %s, etl %s; want fair, fair, fifo", policyNames[y.root.pol],
			policyNames[y.byPath["root.prod"].pol], policyNames[y.byPath["root.prod.etl"].pol])
	}
}

// Jobs go to the queue their pool names, with or without "root.";
// undeclared pools get a leaf of their own (dotted names make parents);
// an empty pool, a parent's name or a queue under a leaf go to
// root.default.
func TestQueueForPool(t *testing.T) {
	path := replaytest.WriteFile(t, "q.conf", "prod.etl\nadhoc\n")
	s, err := Policy.Build(map[string]string{"queues": path})
	if err != nil {
		t.Fatal(err)
	}
	y := s.(*YARNFair)
	for _, c := range []struct{ pool, want string }{
		{"prod.etl", "root.prod.etl"}, {"root.prod.etl", "root.prod.etl"}, {"adhoc", "root.adhoc"},
		{"alice", "root.alice"}, {"team.bob", "root.team.bob"}, {"", "root.default"},
		{"prod", "root.default"}, {"adhoc.sub", "root.default"}, {"bad name", "root.default"}, {"root", "root.default"},
	} {
		if q := y.queueFor(c.pool); q.name != c.want || !q.leaf {
			t.Errorf("pool %q: queue %s (leaf %v), want %s", c.pool, q.name, q.leaf, c.want)
		}
	}
	if q := y.byPath["root.team"]; q == nil || q.leaf {
		t.Errorf("root.team should be a parent made for pool team.bob")
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range [][2]string{
		{"policy", "lottery"}, {"max-assign", "0"}, {"fair-share-preemption-threshold", "1.5"},
		{"min-share-preemption-timeout", "-2"}, {"update-interval", "-1"}, {"queues", "/nonexistent/q.conf"},
	} {
		if _, err := Policy.Build(map[string]string{c[0]: c[1]}); err == nil || !strings.Contains(err.Error(), Name) {
			t.Errorf("%s=%s: error %v, want one naming %s", c[0], c[1], err, Name)
		}
	}
}

// FuzzParseQueues: any bytes give queues or one error line naming the
// file, never a panic or a hang; parsed queues have positive weights,
// min within max, and a parent before each child.
func FuzzParseQueues(f *testing.F) {
	f.Add([]byte("# prod and dev\nroot policy=drf\nprod weight=2 min=20480,10 max=81920,40\nprod.etl policy=fifo max-running-apps=5\nroot.dev policy=fair\n"))
	f.Add([]byte("a\nb min=8192,1\n"))
	f.Add([]byte("a..b weight=x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			a, err := ParseAllocation(bytes.NewReader(data), "q.conf")
			if err != nil {
				if !strings.Contains(err.Error(), "q.conf") || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q is not one line naming the file", err)
				}
				return
			}
			seen := map[string]bool{}
			for _, q := range a.Queues {
				if i := strings.LastIndexByte(q.Path, '.'); i >= 0 && !seen[q.Path[:i]] {
					t.Fatalf("%s before its parent", q.Path)
				}
				seen[q.Path] = true
				if !(q.Weight > 0) || q.HasMax && (q.Min[0] > q.Max[0] || q.Min[1] > q.Max[1]) {
					t.Fatalf("queue %+v", q)
				}
			}
		})
	})
}
