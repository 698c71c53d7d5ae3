package queues

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	text := `# production gets 70%, development 30%, split into two
root.prod.capacity = 70
yarn.scheduler.capacity.root.prod.user-limit-factor = 2
root.dev.capacity = 30
root.dev.maximum-capacity = 50
root.dev.adhoc.capacity = 40
root.dev.etl.capacity = 60
root.dev.etl.minimum-user-limit-percent = 25
root.dev.etl.maximum-am-resource-percent = 0.5
`
	qs, err := Parse(strings.NewReader(text), "q.conf")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range qs.Leaves {
		got = append(got, q.Path)
	}
	if strings.Join(got, " ") != "root.prod root.dev.adhoc root.dev.etl" {
		t.Fatalf("leaves %v", got)
	}
	etl, ok := qs.Queue("etl")
	switch {
	case !ok || etl.Path != "root.dev.etl":
		t.Fatalf("pool etl → %v", etl)
	case math.Abs(etl.AbsCapacity-0.18) > 1e-12 || math.Abs(etl.AbsMaxCapacity-0.5) > 1e-12:
		t.Errorf("etl absolute capacity %v, max %v; want 0.3 × 0.6 = 0.18 and 0.5 × 1 = 0.5", etl.AbsCapacity, etl.AbsMaxCapacity)
	case etl.MinUserLimitPercent != 25 || etl.UserLimitFactor != 1 || etl.MaxAMResourcePercent != 0.5:
		t.Errorf("etl limits %v %v %v", etl.MinUserLimitPercent, etl.UserLimitFactor, etl.MaxAMResourcePercent)
	}
	if adhoc, _ := qs.Queue("adhoc"); adhoc.MaxAMResourcePercent != -1 {
		t.Errorf("adhoc's maximum-am-resource-percent %v; want -1, the scheduler's default", adhoc.MaxAMResourcePercent)
	}
	if prod, _ := qs.Queue("root.prod"); prod.UserLimitFactor != 2 || prod.MaxCapacity != 100 {
		t.Errorf("prod: %+v", prod)
	}
	if _, ok := qs.Queue("nosuch"); ok {
		t.Error("a pool naming no leaf was placed without a default leaf")
	}
	if q, ok := Default().Queue("anything"); !ok || q.Path != "root.default" {
		t.Errorf("the default hierarchy sends a job to %v", q)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"root.a.capacity 50\n", "q.conf:1: \"root.a.capacity 50\" is not root.QUEUE.PROPERTY = VALUE"},
		{"root.a.weight = 1\n", "q.conf:1: key \"root.a.weight\" is not root.QUEUE.PROPERTY"},
		{"prod.capacity = 1\n", "q.conf:1: key \"prod.capacity\""},
		{"root.a.capacity = lots\n", "q.conf:1: root.a.capacity: \"lots\" is not a number"},
		{"root.a.capacity = 120\n", "q.conf:1: root.a.capacity: 120; want a percentage"},
		{"root.a.capacity = 60\nroot.b.capacity = 30\n", "q.conf:1: the children of root have capacities summing to 90; want 100"},
		{"root.a.capacity = 100\nroot.a.capacity = 100\n", "q.conf:2: root.a.capacity set again (first on line 1)"},
		{"root.a.capacity = 100\nroot.a.maximum-capacity = 50\n", "q.conf:2: root.a.maximum-capacity = 50 is below its capacity 100"},
		{"root.a.user-limit-factor = 2\n", "q.conf:1: queue root.a has no capacity; add a line root.a.capacity = PERCENT"},
		{"root.a b.capacity = 100\n", "q.conf:1: queue name \"a b\""},
		{"root.a.capacity = 100\nroot.a.maximum-am-resource-percent = 10\n", "q.conf:2: root.a.maximum-am-resource-percent: 10; want a fraction"},
		{"root.capacity = 50\n", "q.conf:1: root.capacity: root has all the cluster"},
		{"root.x.c.capacity = 100\nroot.x.capacity = 50\nroot.y.capacity = 50\nroot.y.c.capacity = 100\n",
			"q.conf:4: leaf queue name \"c\" is used by root.x.c and root.y.c"},
		{"# nothing\n", "q.conf: no queue defined"},
	} {
		_, err := Parse(strings.NewReader(c.text), "q.conf")
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrQueueConfig) {
			t.Errorf("%q: error %v, want one containing %q wrapping ErrQueueConfig", c.text, err, c.want)
		}
	}
}
