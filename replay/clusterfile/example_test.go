package clusterfile_test

import (
	"fmt"
	"os"
	"strings"

	"sojourn/replay/clusterfile"
)

func ExampleParse() {
	const file = `# 3 large GPU nodes on rack r1, then 2 nodes in the older per-machine format
resources gpu
nodes count=3 rack=r1 memory=30GiB vcores=16 map-slots=8 reduce-slots=4 speed=1.5 gpu=2
15 4 2
15 4 2
`
	c, err := clusterfile.Parse(strings.NewReader(file), "cluster.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Nodes(), "nodes in", len(c.Groups), "groups")
	for _, n := range c.Expand() {
		fmt.Printf("line %d: rack %q, %d MiB, %d vcores, %d+%d slots, speed %v, gpu %d\n",
			n.Line, n.Rack, n.MemoryMB, n.Vcores, n.MapSlots, n.ReduceSlots, n.Speed, n.Extra[0])
	}
	_, err = clusterfile.Parse(strings.NewReader("node memory=15GB\n"), "cluster.txt")
	fmt.Println(err)
	// Output:
	// 5 nodes in 3 groups
	// line 3: rack "r1", 30720 MiB, 16 vcores, 8+4 slots, speed 1.5, gpu 2
	// line 3: rack "r1", 30720 MiB, 16 vcores, 8+4 slots, speed 1.5, gpu 2
	// line 3: rack "r1", 30720 MiB, 16 vcores, 8+4 slots, speed 1.5, gpu 2
	// line 4: rack "", 15360 MiB, 8 vcores, 4+2 slots, speed 1, gpu 0
	// line 5: rack "", 15360 MiB, 8 vcores, 4+2 slots, speed 1, gpu 0
	// cluster.txt:1: memory="15GB": want a size in MiB, or with a MiB/GiB/TiB suffix
}

func ExampleCluster_Format() {
	c := &clusterfile.Cluster{Groups: []clusterfile.Group{
		{Count: 100, Node: clusterfile.Node{MemoryMB: 15 << 10, Vcores: 8, MapSlots: 4, ReduceSlots: 2, Speed: 1}},
	}}
	if err := c.Format(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # 100 nodes
	// nodes count=100 memory=15GiB vcores=8 map-slots=4 reduce-slots=2 speed=1
}
