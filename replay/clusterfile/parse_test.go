package clusterfile_test

import (
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"sojourn/replay/clusterfile"
)

// node returns a node with the defaults of a file without default lines,
// made by the given line.
func node(line int) clusterfile.Node {
	return clusterfile.Node{MemoryMB: 8192, Vcores: 8, MapSlots: 4, ReduceSlots: 2, Speed: 1, Line: line}
}

// with returns n changed by f.
func with(n clusterfile.Node, f func(*clusterfile.Node)) clusterfile.Node {
	f(&n)
	return n
}

var validFiles = []struct {
	name string
	in   string
	want clusterfile.Cluster
}{
	{
		name: "one node of defaults",
		in:   "node\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{{1, node(1)}}},
	},
	{
		name: "HFSP paper cluster",
		in:   "nodes count=100 memory=15GiB vcores=8 map-slots=4 reduce-slots=2\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{100, with(node(1), func(n *clusterfile.Node) { n.MemoryMB = 15360 })},
		}},
	},
	{
		name: "comments, blank lines, tabs, CRLF, no final newline",
		in:   "# a cluster\r\n\r\n  \t\n\tnodes\tcount=2   rack=r1# two nodes\r\n# node\nnode name=n3 #x",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{2, with(node(4), func(n *clusterfile.Node) { n.Rack = "r1" })},
			{1, with(node(6), func(n *clusterfile.Node) { n.Name = "n3" })},
		}},
	},
	{
		name: "every key",
		in:   "nodes count=3 name=big-01.example.com rack=/dc1/rack-2 memory=1TiB vcores=96 map-slots=0 reduce-slots=1024 speed=2.5\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{3, clusterfile.Node{Name: "big-01.example.com", Rack: "/dc1/rack-2", MemoryMB: 1 << 20, Vcores: 96,
				MapSlots: 0, ReduceSlots: 1024, Speed: 2.5, Line: 1}},
		}},
	},
	{
		name: "memory units",
		in: "node memory=1\nnode memory=7.5GiB\nnode memory=0.5gib\nnode memory=16384mib\n" +
			"node memory=2TIB\nnode memory=007.250GiB\nnode memory=1099511627776\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{1, with(node(1), func(n *clusterfile.Node) { n.MemoryMB = 1 })},
			{1, with(node(2), func(n *clusterfile.Node) { n.MemoryMB = 7680 })},
			{1, with(node(3), func(n *clusterfile.Node) { n.MemoryMB = 512 })},
			{1, with(node(4), func(n *clusterfile.Node) { n.MemoryMB = 16384 })},
			{1, with(node(5), func(n *clusterfile.Node) { n.MemoryMB = 2 << 20 })},
			{1, with(node(6), func(n *clusterfile.Node) { n.MemoryMB = 7424 })},
			{1, with(node(7), func(n *clusterfile.Node) { n.MemoryMB = 1 << 40 })},
		}},
	},
	{
		name: "speeds",
		in:   "node speed=0.7\nnode speed=1e3\nnode speed=2.50\nnode speed=+.5\nnode speed=1E-3\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{1, with(node(1), func(n *clusterfile.Node) { n.Speed = 0.7 })},
			{1, with(node(2), func(n *clusterfile.Node) { n.Speed = 1000 })},
			{1, with(node(3), func(n *clusterfile.Node) { n.Speed = 2.5 })},
			{1, with(node(4), func(n *clusterfile.Node) { n.Speed = 0.5 })},
			{1, with(node(5), func(n *clusterfile.Node) { n.Speed = 0.001 })},
		}},
	},
	{
		name: "a node without slots is a YARN node",
		in:   "nodes count=007 map-slots=0 reduce-slots=0\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{7, with(node(1), func(n *clusterfile.Node) { n.MapSlots, n.ReduceSlots = 0, 0 })},
		}},
	},
	{
		name: "legacy lines",
		in:   "# memoryGB mapSlots reduceSlots\n15 4 2\n30\t8\t4\n7 0 0\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{1, with(node(2), func(n *clusterfile.Node) { n.MemoryMB = 15360 })},
			{1, with(node(3), func(n *clusterfile.Node) { n.MemoryMB, n.MapSlots, n.ReduceSlots = 30720, 8, 4 })},
			{1, with(node(4), func(n *clusterfile.Node) { n.MemoryMB, n.MapSlots, n.ReduceSlots = 7168, 0, 0 })},
		}},
	},
	{
		name: "default lines apply to the lines after them, legacy ones too",
		in: "node\ndefault vcores=16 speed=1.5 rack=r1\n7 2 1\nnode name=a memory=1TiB\n" +
			"default memory=2048MiB rack=r2\nnode vcores=4\ndefault map-slots=1\n32 3 3\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{
			{1, node(1)},
			{1, clusterfile.Node{Rack: "r1", MemoryMB: 7168, Vcores: 16, MapSlots: 2, ReduceSlots: 1, Speed: 1.5, Line: 3}},
			{1, clusterfile.Node{Name: "a", Rack: "r1", MemoryMB: 1 << 20, Vcores: 16, MapSlots: 4, ReduceSlots: 2, Speed: 1.5, Line: 4}},
			{1, clusterfile.Node{Rack: "r2", MemoryMB: 2048, Vcores: 4, MapSlots: 4, ReduceSlots: 2, Speed: 1.5, Line: 6}},
			{1, clusterfile.Node{Rack: "r2", MemoryMB: 32768, Vcores: 16, MapSlots: 3, ReduceSlots: 3, Speed: 1.5, Line: 8}},
		}},
	},
	{
		name: "extra resources",
		in:   "# GPUs and FPGAs\nresources gpu fpga-v2\nnodes count=2 gpu=4\nnode fpga-v2=1\ndefault gpu=1\nnode\n64 8 4\n",
		want: clusterfile.Cluster{Extra: []string{"gpu", "fpga-v2"}, Groups: []clusterfile.Group{
			{2, with(node(3), func(n *clusterfile.Node) { n.Extra = []int64{4, 0} })},
			{1, with(node(4), func(n *clusterfile.Node) { n.Extra = []int64{0, 1} })},
			{1, with(node(6), func(n *clusterfile.Node) { n.Extra = []int64{1, 0} })},
			{1, with(node(7), func(n *clusterfile.Node) { n.MemoryMB, n.MapSlots, n.ReduceSlots, n.Extra = 65536, 8, 4, []int64{1, 0} })},
		}},
	},
	{
		name: "a million nodes in all",
		in:   "nodes count=999999\nnode\n",
		want: clusterfile.Cluster{Groups: []clusterfile.Group{{999999, node(1)}, {1, node(2)}}},
	},
}

func TestParse(t *testing.T) {
	for _, tc := range validFiles {
		t.Run(tc.name, func(t *testing.T) {
			c, err := clusterfile.Parse(strings.NewReader(tc.in), "cluster.txt")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*c, tc.want) {
				t.Errorf("got\n%+v\nwant\n%+v", *c, tc.want)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestLoadExamples(t *testing.T) {
	rack := func(n clusterfile.Node, name, rack string, line int) clusterfile.Node {
		n.Name, n.Rack, n.Line = name, rack, line
		return n
	}
	std := clusterfile.Node{MemoryMB: 15360, Vcores: 8, MapSlots: 4, ReduceSlots: 2, Speed: 1}
	large := clusterfile.Node{MemoryMB: 30720, Vcores: 16, MapSlots: 8, ReduceSlots: 4, Speed: 1.5}
	old := clusterfile.Node{MemoryMB: 7680, Vcores: 4, MapSlots: 2, ReduceSlots: 1, Speed: 0.7}
	for _, tc := range []struct {
		path  string
		nodes int
		want  []clusterfile.Group
	}{
		{"testdata/paper.txt", 100, []clusterfile.Group{
			{20, rack(std, "", "/rack1", 5)},
			{20, rack(std, "", "/rack2", 6)},
			{20, rack(std, "", "/rack3", 7)},
			{20, rack(std, "", "/rack4", 8)},
			{20, rack(std, "", "/rack5", 9)},
		}},
		{"testdata/hetero.txt", 100, []clusterfile.Group{
			{20, rack(std, "general", "/rack1", 7)},
			{20, rack(std, "general", "/rack2", 8)},
			{20, rack(std, "general", "/rack3", 9)},
			{20, rack(large, "large", "/rack4", 12)},
			{10, rack(large, "large", "/rack5", 13)},
			{10, rack(old, "old", "/rack5", 16)},
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			c, err := clusterfile.Load(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Groups, tc.want) || c.Extra != nil {
				t.Errorf("got\n%+v\nwant\n%+v", *c, tc.want)
			}
			if c.Nodes() != tc.nodes {
				t.Errorf("Nodes() = %d; want %d", c.Nodes(), tc.nodes)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	c, err := clusterfile.Parse(strings.NewReader("resources gpu\nnodes count=3 gpu=2 rack=a\nnode rack=b\n"), "x")
	if err != nil {
		t.Fatal(err)
	}
	nodes := c.Expand()
	if len(nodes) != 4 || c.Nodes() != 4 {
		t.Fatalf("%d nodes, Nodes() = %d; want 4", len(nodes), c.Nodes())
	}
	for i, want := range []string{"a", "a", "a", "b"} {
		if nodes[i].Rack != want {
			t.Errorf("node %d on rack %q; want %q", i, nodes[i].Rack, want)
		}
	}
	nodes[0].Extra[0] = 99
	if nodes[1].Extra[0] != 2 || c.Groups[0].Node.Extra[0] != 2 {
		t.Errorf("nodes share their Extra slices")
	}
	nodes[0].Extra = append(nodes[0].Extra, 5)
	if nodes[1].Extra[0] != 2 {
		t.Errorf("appending to one node's Extra changed the next one's")
	}
	if want := []int64{0}; !reflect.DeepEqual(nodes[3].Extra, want) {
		t.Errorf("node 3 Extra %v; want %v", nodes[3].Extra, want)
	}
	if c, _ := clusterfile.Parse(strings.NewReader("node\n"), "x"); c.Expand()[0].Extra != nil {
		t.Errorf("Extra is not nil without extra resource types")
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range badFiles {
		t.Run(tc.name, func(t *testing.T) {
			c, err := clusterfile.Parse(strings.NewReader(tc.in), "cluster.txt")
			if err == nil {
				t.Fatalf("no error; got %+v", *c)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			if !errors.Is(err, clusterfile.ErrCluster) {
				t.Errorf("error does not wrap ErrCluster")
			}
		})
	}
}

func TestErrorLocation(t *testing.T) {
	_, err := clusterfile.Parse(strings.NewReader("node\n\nnode vcores=x\n"), "c.txt")
	var e *clusterfile.Error
	if !errors.As(err, &e) || e.File != "c.txt" || e.Line != 3 || e.Key != "vcores" {
		t.Errorf("got %#v; want file c.txt, line 3, key vcores", err)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n--
		return copy(p, "node\n"), nil
	}
	return 0, errBoom
}

var errBoom = errors.New("boom\non two lines")

func TestReadError(t *testing.T) {
	_, err := clusterfile.Parse(&failingReader{n: 2}, "c.txt")
	if want := "c.txt: read error after line 2: boom on two lines"; err == nil || err.Error() != want {
		t.Errorf("error %v; want %s", err, want)
	}
	if !errors.Is(err, errBoom) || errors.Is(err, clusterfile.ErrCluster) {
		t.Errorf("error %v does not wrap the reader's error alone", err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := clusterfile.Load("testdata/missing.txt")
	if want := "testdata/missing.txt: cannot open: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("error %v; want %s", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap fs.ErrNotExist", err)
	}
}

// TestHugeCountAllocatesNothing checks that a count is checked before
// anything is made for it.
func TestHugeCountAllocatesNothing(t *testing.T) {
	in := "nodes count=1000000 memory=1TiB\n"
	allocs := testing.AllocsPerRun(10, func() {
		c, err := clusterfile.Parse(strings.NewReader(in), "c.txt")
		if err != nil || c.Nodes() != clusterfile.MaxNodes {
			t.Fatal(c, err)
		}
	})
	if allocs > 30 {
		t.Errorf("%v allocations to parse one line", allocs)
	}
}

func TestExpandInvalid(t *testing.T) {
	c := &clusterfile.Cluster{Extra: []string{"gpu"}, Groups: []clusterfile.Group{
		{-3, node(0)},
		{2, with(node(0), func(n *clusterfile.Node) { n.Extra = []int64{1, 2} })},
	}}
	if nodes := c.Expand(); len(nodes) != 2 || len(nodes[1].Extra) != 2 {
		t.Errorf("Expand of an invalid cluster gave %+v", nodes)
	}
}

func TestLoadDirectory(t *testing.T) {
	_, err := clusterfile.Load("testdata")
	// The cause's text depends on the system (Linux: "read testdata: is a directory").
	if want := "testdata: cannot read: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v; want it to begin with %q", err, want)
	}
}
