package clusterfile_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"sojourn/replay/clusterfile"
)

// withoutLines returns a copy of c with every Node.Line 0: Format does
// not keep the lines a cluster was read from.
func withoutLines(c *clusterfile.Cluster) clusterfile.Cluster {
	d := *c
	d.Groups = append([]clusterfile.Group(nil), c.Groups...)
	for i := range d.Groups {
		d.Groups[i].Node.Line = 0
	}
	return d
}

// roundTrip formats c, parses the result and fails t unless it equals c
// (lines aside), and unless formatting again gives the same text.
func roundTrip(t *testing.T, c *clusterfile.Cluster) {
	t.Helper()
	var b bytes.Buffer
	if err := c.Format(&b); err != nil {
		t.Fatalf("Format: %v", err)
	}
	d, err := clusterfile.Parse(bytes.NewReader(b.Bytes()), "formatted.txt")
	if err != nil {
		t.Fatalf("Parse of Format's output: %v\n%s", err, b.String())
	}
	if got, want := withoutLines(d), withoutLines(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the cluster:\n%+v\nto\n%+v\nthrough\n%s", want, got, b.String())
	}
	var b2 bytes.Buffer
	if err := d.Format(&b2); err != nil || b2.String() != b.String() {
		t.Fatalf("formatting again gave\n%s(%v); want\n%s", b2.String(), err, b.String())
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range validFiles {
		t.Run(tc.name, func(t *testing.T) {
			c, err := clusterfile.Parse(strings.NewReader(tc.in), "cluster.txt")
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, c)
		})
	}
	for _, path := range []string{"testdata/paper.txt", "testdata/hetero.txt"} {
		t.Run(path, func(t *testing.T) {
			c, err := clusterfile.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, c)
		})
	}
}

func TestFormat(t *testing.T) {
	in := "resources gpu\ndefault rack=/r1 speed=0.7\nnodes count=10 memory=7.5GiB vcores=4 name=old\n" +
		"node memory=2TiB gpu=8 map-slots=0 reduce-slots=0\n"
	want := `# 11 nodes
resources gpu
nodes count=10 name=old rack=/r1 memory=7680MiB vcores=4 map-slots=4 reduce-slots=2 speed=0.7 gpu=0
node rack=/r1 memory=2TiB vcores=8 map-slots=0 reduce-slots=0 speed=0.7 gpu=8
`
	c, err := clusterfile.Parse(strings.NewReader(in), "c.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Format(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestFormatPaper(t *testing.T) {
	c, err := clusterfile.Load("testdata/paper.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Format(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "nodes count=20 rack=/rack3 memory=15GiB vcores=8 map-slots=4 reduce-slots=2 speed=1\n") {
		t.Errorf("unexpected output:\n%s", b.String())
	}
}

func TestValidate(t *testing.T) {
	good := func() *clusterfile.Cluster {
		return &clusterfile.Cluster{Extra: []string{"gpu"}, Groups: []clusterfile.Group{
			{2, clusterfile.Node{MemoryMB: 1024, Vcores: 1, MapSlots: 1, Speed: 1, Extra: []int64{1}}},
		}}
	}
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		change func(*clusterfile.Cluster)
		want   string
	}{
		{func(c *clusterfile.Cluster) { c.Groups = nil }, "clusterfile: no nodes"},
		{func(c *clusterfile.Cluster) { c.Extra = []string{"a", "b", "c"} }, "clusterfile: 3 extra resource types; want at most 2"},
		{func(c *clusterfile.Cluster) { c.Extra = []string{"speed"} }, `clusterfile: extra resource "speed": want a name other than memory, vcores, map-slots, reduce-slots, speed, count, rack, name`},
		{func(c *clusterfile.Cluster) { c.Extra = []string{"gpu", "gpu"} }, `clusterfile: extra resource "gpu" declared twice`},
		{func(c *clusterfile.Cluster) { c.Groups[0].Count = 0 }, "clusterfile: group 0: count 0; want 1 to 1000000 nodes in all"},
		{func(c *clusterfile.Cluster) { c.Groups = append(c.Groups, clusterfile.Group{999999, c.Groups[0].Node}) }, "clusterfile: group 1: count 999999; want 1 to 1000000 nodes in all"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Rack = "rack 1" }, `clusterfile: group 0: rack "rack 1": want printable ASCII without spaces, '#' or '='`},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Name = "#1" }, `clusterfile: group 0: name "#1": want printable ASCII without spaces, '#' or '='`},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.MemoryMB = 0 }, "clusterfile: group 0: memory 0 MiB; want 1 to 1099511627776"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Vcores = -1 }, "clusterfile: group 0: vcores -1; want 1 to 1000000"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.MapSlots = 2000 }, "clusterfile: group 0: map slots 2000; want 0 to 1024"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.ReduceSlots = -1 }, "clusterfile: group 0: reduce slots -1; want 0 to 1024"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Speed = 0 }, "clusterfile: group 0: speed 0; want a number from 0.001 to 1000"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Extra = nil }, "clusterfile: group 0: 0 extra amounts for 1 extra resource types"},
		{func(c *clusterfile.Cluster) { c.Groups[0].Node.Extra[0] = -2 }, "clusterfile: group 0: extra resource gpu: -2; want 0 to 1099511627776"},
	} {
		c := good()
		tc.change(c)
		if err := c.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("Validate: %v; want %s", err, tc.want)
		}
		if err := c.Format(&bytes.Buffer{}); err == nil {
			t.Errorf("Format of an invalid cluster gave no error (%s)", tc.want)
		}
	}
	var b bytes.Buffer
	c := good()
	c.Groups[0].Node.Speed = 0
	if err := c.Format(&b); err == nil || b.Len() != 0 {
		t.Errorf("Format of an invalid cluster wrote %q", b.String())
	}
}
