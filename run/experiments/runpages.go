package experiments

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"sojourn/reports"
	"sojourn/results"
)

// RunPages are the report's pages of the replays of experiment name, from
// its manifest m and the results under dir (its result directory): one per
// run whose jobs.arrow is there, with the slots chart when its tasks.arrow
// is there too. Runs written as Parquet or CSV get no page.
func RunPages(dir, name string, m *Manifest) ([]reports.RunPage, error) {
	var pages []reports.RunPage
	for _, r := range m.Runs {
		out := filepath.Join(dir, filepath.FromSlash(r.Dir))
		jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p := reports.RunPage{Section: name, Dir: r.Dir, Title: name + ": " + r.Dir,
			Params: []reports.Param{{Key: "policy", Value: r.Policy}, {Key: "trace", Value: r.Trace}}}
		for _, group := range []struct {
			prefix string
			kv     map[string]string
		}{{"label.", r.Labels}, {"policy.", r.PolicyOptions}, {"cluster.", r.Cluster}} {
			keys := make([]string, 0, len(group.kv))
			for k := range group.kv {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p.Params = append(p.Params, reports.Param{Key: group.prefix + k, Value: group.kv[k]})
			}
		}
		p.Jobs = reports.RunJobs{Index: jobs.Index, Class: jobs.Class, Maps: jobs.Maps, Reduces: jobs.Reduces,
			Submit: jobs.Submit, Finish: jobs.Finish, Sojourn: jobs.Sojourn, NodeLocal: jobs.NodeLocal}
		tasks, err := results.ReadTasks(filepath.Join(out, results.TasksFile))
		switch {
		case err == nil:
			p.Segments = &reports.RunSegments{Job: tasks.Job, Reduce: tasks.Reduce, Start: tasks.Start, End: tasks.End}
		case !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
		pages = append(pages, p)
	}
	return pages, nil
}
