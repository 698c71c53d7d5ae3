package main

import (
	"errors"
	"fmt"
	"io"

	"sojourn/replay"
	"sojourn/replay/clusterfile"
	"sojourn/run"
	"sojourn/traces"
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

// checkTaskKinds refuses, before the run, a slot-model cluster file that
// has no slot for a kind of task the trace holds: the run could never
// finish, and would end on the engine's no-progress detector blaming the
// policy. Every job has maps; reduces are looked for only when the
// cluster has no reduce slot.
func checkTaskKinds(cfg replay.Config, clusterPath, tracePath string) error {
	if cfg.Model == replay.ContainerModel || len(cfg.Cluster) == 0 {
		return nil
	}
	var maps, reduces int64
	for _, n := range cfg.Cluster {
		maps += int64(n.MapSlots)
		reduces += int64(n.ReduceSlots)
	}
	if maps == 0 {
		return fmt.Errorf("--cluster %s: no node has a map slot; every job of %s has maps", clusterPath, tracePath)
	}
	if reduces > 0 {
		return nil
	}
	r, err := traces.Open(tracePath)
	if err != nil {
		return err
	}
	defer r.Close()
	var j traces.Job
	for row := 0; ; row++ {
		switch err := r.Next(&j); {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if j.Reduces() > 0 {
			return fmt.Errorf("--cluster %s: no node has a reduce slot; job %d (row %d) of %s has %d reduces", clusterPath, j.ID, row, tracePath, j.Reduces())
		}
	}
}
