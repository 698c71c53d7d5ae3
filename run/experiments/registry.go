package experiments

import (
	"fmt"
	"strings"
)

var all = []*Experiment{
	{Name: "fig3", Title: "FB2009 sojourn-time ECDFs per job class, FAIR vs HFSP", run: fig3,
		Description: "FB2009 on 100 nodes under every policy; ECDFs of small, medium and large jobs."},
	{Name: "fig4", Title: "FB2010 map, reduce and job sojourn-time ECDFs, FAIR vs HFSP", run: fig4,
		Description: "FB2010 on 100 nodes under every policy; phase ECDFs with the 60-minute line."},
	{Name: "fig5", Title: "Mean sojourn time against cluster size (FB2009)", run: fig5,
		Description: "FB2009 on 10, 20, …, 100 nodes under every policy."},
	{Name: "fig6", Title: "Mean sojourn time against the estimation error α (map-only FB2009)", run: fig6,
		Description: "HFSP with uniform errors α = 0.1 … 1.0 on map estimates, 20 repetitions each; FAIR and exact HFSP for reference."},
	{Name: "fig7", Title: "Slot allocation under eager preemption, Wait and Kill", run: fig7,
		Description: "The paper's five-job reduce workload on 4 nodes × 2 reduce slots, under the three preemption primitives."},
	{Name: "fig8", Title: "Swap time against memory footprint", run: fig8,
		Description: "Suspend/resume of a 6 GB reduce task by tasks of 0.5 to 6 GB on one reduce slot."},
	{Name: "backfill", Title: "Fair scheduling with EASY backfilling: the three cases", run: backfill,
		Description: "The two-level scheduler paper's cases (equal, medium, more small jobs): FAIR vs easy."},
	{Name: "disco", Title: "Disco's preemptive fair: research and production jobs", run: disco,
		Description: "A research job of 25 long maps and a production job of 25 short ones, 10 seeds: FAIR vs disco."},
	{Name: "estimates", Title: "Sources of job sizes: regret against SRPT on an SWF-like workload", run: estimates,
		Description: "500 map-only jobs with users' estimates per seed; HFSP, SJF and FAIR+EASY with exact sizes, the users' estimates, sampling and log-normal errors, against SRPT."},
	{Name: "containers", Title: "Typed slots or fungible containers: FB2009 and FB2010 on 100 nodes in both models", run: containers,
		Description: "The paper's workloads on 100 nodes of 4 + 2 slots or of 15 GiB and 8 vcores as YARN NodeManagers, FIFO, FAIR and HFSP in both models and YARN's own policies in containers."},
	{Name: "tables", Title: "Mean and median sojourn and data locality of every policy", run: tables,
		Description: "FB2009 and FB2010 on 100 nodes under every policy: the FIFO/HFSP ratio and node-local maps."},
}

// All lists the experiments in report order.
func All() []*Experiment { return append([]*Experiment(nil), all...) }

// Names lists the experiment names in report order.
func Names() []string {
	var out []string
	for _, e := range all {
		out = append(out, e.Name)
	}
	return out
}

// Lookup returns the experiment called name.
func Lookup(name string) (*Experiment, error) {
	for _, e := range all {
		if e.Name == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("unknown experiment %q: want one of %s, or all", name, strings.Join(Names(), ", "))
}
