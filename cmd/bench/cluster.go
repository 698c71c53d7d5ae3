package main

import (
	"fmt"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
)

// loadCluster reads the cluster file at path into cfg.Cluster. Racks are
// numbered in the order they first appear and the nodes are taken rack by
// rack, in file order within a rack (the engine wants a rack's nodes
// together); nodes without a rack fill racks of --nodes-per-rack of their
// own, in file order.
func loadCluster(path string, cfg *replay.Config) error {
	cl, err := clusterfile.Load(path)
	if err != nil {
		return err
	}
	nodes := cl.Expand()
	perRack := cfg.NodesPerRack
	if perRack == 0 {
		perRack = replay.DefaultNodesPerRack
	}
	racks := map[string]int{}
	var order []string
	rackOf := make([]string, len(nodes))
	auto := 0
	for i := range nodes {
		r := nodes[i].Rack
		if r == "" {
			// A name no file can give (names have no spaces).
			r = fmt.Sprintf("auto %d", auto/perRack)
			auto++
		}
		rackOf[i] = r
		if _, ok := racks[r]; !ok {
			racks[r] = len(order)
			order = append(order, r)
		}
	}
	byRack := make([][]int, len(order))
	for i, r := range rackOf {
		byRack[racks[r]] = append(byRack[racks[r]], i)
	}
	cfg.Cluster = make([]replay.NodeSpec, 0, len(nodes))
	for r, members := range byRack {
		for _, i := range members {
			n := &nodes[i]
			s := replay.NodeSpec{Rack: int32(r), MapSlots: int32(n.MapSlots), ReduceSlots: int32(n.ReduceSlots),
				MemoryMB: n.MemoryMB, Vcores: n.Vcores, Speed: n.Speed}
			copy(s.Extra[:], n.Extra)
			cfg.Cluster = append(cfg.Cluster, s)
		}
	}
	cfg.ExtraResources = cl.Extra
	cfg.Nodes = 0
	probe := *cfg
	if err := probe.Validate(); err != nil {
		return fmt.Errorf("--cluster %s: %v", path, err)
	}
	return nil
}
