package pools_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/schedulers/pools"
)

const allocXML = `<?xml version="1.0"?>
<!-- Hadoop 1.x fair-scheduler allocation file -->
<allocations>
  <pool name="research">
    <minMaps>5</minMaps>
    <minReduces>2</minReduces>
    <weight>2.0</weight>
    <schedulingMode>FIFO</schedulingMode>
    <maxRunningJobs>10</maxRunningJobs>
    <minSharePreemptionTimeout>60</minSharePreemptionTimeout>
    <maxMaps>50</maxMaps>
  </pool>
  <pool name="adhoc">
    <weight>0.5</weight>
  </pool>
  <user name="alice"><maxRunningJobs>3</maxRunningJobs></user>
  <user name="bob"></user>
  <userMaxJobsDefault>5</userMaxJobsDefault>
  <poolMaxJobsDefault>20</poolMaxJobsDefault>
  <fairSharePreemptionTimeout>600</fairSharePreemptionTimeout>
  <defaultMinSharePreemptionTimeout>300</defaultMinSharePreemptionTimeout>
  <defaultPoolSchedulingMode>fifo</defaultPoolSchedulingMode>
</allocations>
`

const allocText = `# pool     mode  weight  minMaps  minReduces
research   fifo  2.0     5        2   # the research group

adhoc      FAIR  0.5     0        0
`

func TestParsePoolsXML(t *testing.T) {
	p, err := pools.Parse(strings.NewReader(allocXML), "pools.xml")
	if err != nil {
		t.Fatal(err)
	}
	// Fields a pool omits follow the global defaults, even those set after
	// it in the file, as Hadoop resolves them at lookup.
	tests := []struct {
		pool string
		want pools.PoolConfig
	}{
		{"research", pools.PoolConfig{Name: "research", Weight: 2, MinMaps: 5, MinReduces: 2,
			MaxMaps: 50, MaxReduces: pools.Unlimited, Mode: pools.ModeFIFO,
			MaxRunningJobs: 10, MinSharePreemptionTimeout: 60}},
		{"adhoc", pools.PoolConfig{Name: "adhoc", Weight: 0.5, MaxMaps: pools.Unlimited,
			MaxReduces: pools.Unlimited, Mode: pools.ModeFIFO, MaxRunningJobs: 20, MinSharePreemptionTimeout: 300}},
		{"undeclared", pools.PoolConfig{Name: "undeclared", Weight: 1, MaxMaps: pools.Unlimited,
			MaxReduces: pools.Unlimited, Mode: pools.ModeFIFO, MaxRunningJobs: 20, MinSharePreemptionTimeout: 300}},
	}
	for _, tc := range tests {
		t.Run(tc.pool, func(t *testing.T) {
			if got := p.Pool(tc.pool); got != tc.want {
				t.Errorf("Pool(%q) =\n%+v, want\n%+v", tc.pool, got, tc.want)
			}
		})
	}
	if a, b, c := p.UserMaxJobs("alice"), p.UserMaxJobs("bob"), p.UserMaxJobs("carol"); a != 3 || b != 5 || c != 5 {
		t.Errorf("UserMaxJobs = %d, %d, %d; want 3, 5, 5", a, b, c)
	}
	if p.FairSharePreemptionTimeout != 600 || p.DefaultMinSharePreemptionTimeout != 300 {
		t.Errorf("timeouts %g, %g; want 600, 300", p.FairSharePreemptionTimeout, p.DefaultMinSharePreemptionTimeout)
	}
}

func TestParsePoolsText(t *testing.T) {
	p, err := pools.Parse(strings.NewReader(allocText), "pools.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, a, d := p.Pool("research"), p.Pool("adhoc"), p.Pool(pools.DefaultName)
	if r.Mode != pools.ModeFIFO || r.Weight != 2 || r.MinMaps != 5 || r.MinReduces != 2 {
		t.Errorf("research = %+v", r)
	}
	if a.Mode != pools.ModeFair || a.Weight != 0.5 || a.MinMaps != 0 {
		t.Errorf("adhoc = %+v", a)
	}
	// Hadoop's defaults: weight 1, no minimum, no limits, no preemption.
	want := pools.PoolConfig{Name: "default", Weight: 1, MaxMaps: pools.Unlimited, MaxReduces: pools.Unlimited,
		MaxRunningJobs: pools.Unlimited, MinSharePreemptionTimeout: math.Inf(1)}
	if d != want {
		t.Errorf("default = %+v, want %+v", d, want)
	}
	for _, p := range []*pools.Pools{p, pools.New(), nil} {
		if got := p.Pool("x"); got.MaxRunningJobs != pools.Unlimited || got.Weight != 1 || p.UserMaxJobs("u") != pools.Unlimited {
			t.Errorf("defaults: %+v", got)
		}
	}
}

func TestParsePoolsErrors(t *testing.T) {
	xml := func(body string) string { return "<allocations>\n" + body + "\n</allocations>\n" }
	tests := []struct {
		name, file, in string
		want           string // the whole error message
	}{
		{"unknown pool element", "a.xml", xml(`<pool name="a"><minMap>3</minMap></pool>`),
			`a.xml:2: pool "a": minMap: unknown element in <pool>`},
		{"negative", "a.xml", xml("<pool name=\"a\">\n<minMaps>-3</minMaps></pool>"),
			`a.xml:3: pool "a": minMaps: -3 is negative`},
		{"not an integer", "a.xml", xml(`<pool name="a"><maxRunningJobs>2.5</maxRunningJobs></pool>`),
			`a.xml:2: pool "a": maxRunningJobs: "2.5" is not an integer`},
		{"bad weight", "a.xml", xml(`<pool name="a"><weight>NaN</weight></pool>`),
			`a.xml:2: pool "a": weight: "NaN" is not a finite number`},
		{"bad mode", "a.xml", xml(`<pool name="a"><schedulingMode>lifo</schedulingMode></pool>`),
			`a.xml:2: pool "a": schedulingMode: "lifo" is not fair or fifo`},
		{"duplicate pool", "a.xml", xml("<pool name=\"a\"/>\n<pool name=\"a\"/>"),
			`a.xml:3: pool "a": already defined on line 2`},
		{"duplicate field", "a.xml", xml(`<pool name="a"><weight>1</weight><weight>2</weight></pool>`),
			`a.xml:2: pool "a": weight: already defined on line 2`},
		{"missing name", "a.xml", xml(`<pool><weight>1</weight></pool>`),
			`a.xml:2: pool: missing name attribute`},
		{"nested value", "a.xml", xml(`<pool name="a"><weight><b>1</b></weight></pool>`),
			`a.xml:2: pool "a": weight: unexpected element <b>`},
		{"unknown global", "a.xml", xml(`<maxPools>3</maxPools>`),
			`a.xml:2: maxPools: unknown element in <allocations>`},
		{"bad global", "a.xml", xml(`<fairSharePreemptionTimeout>-5</fairSharePreemptionTimeout>`),
			`a.xml:2: fairSharePreemptionTimeout: -5 is negative`},
		{"duplicate global", "a.xml", xml("<userMaxJobsDefault>1</userMaxJobsDefault>\n<userMaxJobsDefault>1</userMaxJobsDefault>"),
			`a.xml:3: userMaxJobsDefault: already defined on line 2`},
		{"duplicate user", "a.xml", xml("<user name=\"u\"/>\n<user name=\"u\"/>"),
			`a.xml:3: user "u": already defined on line 2`},
		{"unknown user element", "a.xml", xml(`<user name="u"><weight>1</weight></user>`),
			`a.xml:2: weight: unknown element in <user name="u">`},
		{"stray text", "a.xml", xml(`hello`), `a.xml:1: allocations: unexpected text "hello"`},
		{"wrong root", "a.xml", "<pools/>", `a.xml:1: want a single <allocations> root element`},
		{"empty XML", "a.xml", "", `a.xml:1: want a single <allocations> root element`},
		{"malformed", "a.conf", "<allocations>\n<pool name=\"a\">\n</allocations>",
			`a.conf:3: malformed XML: element <pool> closed by </allocations>`},
		{"field count", "p.txt", "# header\nresearch fifo 2.0 5\n", `p.txt:2: 4 fields; want 5: <pool> <fair|fifo> <weight> <minMaps> <minReduces>`},
		{"text weight", "p.txt", "a fair -1 0 0", `p.txt:1: pool "a": weight: -1 is negative`},
		{"text mode", "p.txt", "a fare 1 0 0", `p.txt:1: pool "a": schedulingMode: "fare" is not fair or fifo`},
		{"text minReduces", "p.txt", "a fair 1 0 x", `p.txt:1: pool "a": minReduces: "x" is not an integer`},
		{"text duplicate", "p.txt", "a fair 1 0 0\n\nb fair 1 0 0\na fifo 1 0 0", `p.txt:4: pool "a": already defined on line 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pools.Parse(strings.NewReader(tc.in), tc.file)
			if err == nil {
				t.Fatalf("no error; want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			var pe *pools.PoolConfigError
			if !errors.Is(err, pools.ErrPoolConfig) || !errors.As(err, &pe) || pe.File != tc.file {
				t.Errorf("%v: not a *pools.PoolConfigError for %s wrapping pools.ErrPoolConfig", err, tc.file)
			}
		})
	}
}

func TestLoadPools(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"fair.xml": allocXML, "pools": allocText, "sniffed.conf": allocXML} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := pools.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := p.Pool("research").MinMaps; got != 5 {
			t.Errorf("%s: research minMaps = %d, want 5", name, got)
		}
	}
	if _, err := pools.Load(filepath.Join(dir, "missing.xml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func ExampleParse() {
	p, err := pools.Parse(strings.NewReader(`
# pool   mode  weight  minMaps  minReduces
prod     fair  3       40       10
adhoc    fifo  1       0        0
`), "pools.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"prod", "adhoc", "other"} {
		c := p.Pool(name)
		fmt.Println(c.Name, c.Mode, c.Weight, c.MinMaps, c.MinReduces)
	}
	_, err = pools.Parse(strings.NewReader("prod fair 3 -40 10\n"), "pools.txt")
	fmt.Println(err)
	// Output:
	// prod fair 3 40 10
	// adhoc fifo 1 0 0
	// other fair 1 0 0
	// pools.txt:1: pool "prod": minMaps: -40 is negative
}
