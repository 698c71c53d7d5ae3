package run

import (
	"fmt"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
)

// ClusterNodes turns a cluster file's nodes into the engine's node list.
// Racks are numbered in the order they first appear and the nodes taken
// rack by rack, in file order within a rack (the engine wants a rack's
// nodes together); nodes without a rack fill racks of perRack nodes of
// their own, in file order. It also returns the extra resources' names.
func ClusterNodes(cl *clusterfile.Cluster, perRack int) ([]replay.NodeSpec, []string) {
	nodes := cl.Expand()
	if perRack <= 0 {
		perRack = replay.DefaultNodesPerRack
	}
	racks := map[string]int{}
	var byRack [][]int
	auto := 0
	for i := range nodes {
		r := nodes[i].Rack
		if r == "" {
			r = fmt.Sprintf("auto %d", auto/perRack) // no file's rack name has a space
			auto++
		}
		k, ok := racks[r]
		if !ok {
			k = len(byRack)
			racks[r] = k
			byRack = append(byRack, nil)
		}
		byRack[k] = append(byRack[k], i)
	}
	out := make([]replay.NodeSpec, 0, len(nodes))
	for r, members := range byRack {
		for _, i := range members {
			n := &nodes[i]
			s := replay.NodeSpec{Rack: int32(r), MapSlots: int32(n.MapSlots), ReduceSlots: int32(n.ReduceSlots),
				MemoryMB: n.MemoryMB, Vcores: n.Vcores, Speed: n.Speed}
			copy(s.Extra[:], n.Extra)
			out = append(out, s)
		}
	}
	return out, cl.Extra
}
