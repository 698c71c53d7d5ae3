package main

import (
	"fmt"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
	"sojourn/run"
)

// loadCluster reads the cluster file at path into cfg.Cluster (see
// run.ClusterNodes for the order of the nodes and their racks).
func loadCluster(path string, cfg *replay.Config) error {
	cl, err := clusterfile.Load(path)
	if err != nil {
		return err
	}
	cfg.Cluster, cfg.ExtraResources = run.ClusterNodes(cl, cfg.NodesPerRack)
	cfg.Nodes = 0
	probe := *cfg
	if err := probe.Validate(); err != nil {
		return fmt.Errorf("--cluster %s: %v", path, err)
	}
	return nil
}
