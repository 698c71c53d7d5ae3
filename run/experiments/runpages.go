package experiments

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"sojourn/reports"
	"sojourn/results"
)

// WriteRunPages writes into the report's directory reports the pages of
// the replays of experiment name (reports.WriteRunPage), from its manifest
// m and the results under dir (its result directory): one per run whose
// jobs.arrow is there, with the slots chart when its tasks.arrow is there
// too; runs written as Parquet or CSV get no page. Pages are written in
// parallel; the links come back in the manifest's order, and the first
// error in that order.
func WriteRunPages(reportsDir, dir, name string, m *Manifest) ([]reports.RunLink, error) {
	links := make([]*reports.RunLink, len(m.Runs))
	errs := make([]error, len(m.Runs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(m.Runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, err := runPage(dir, name, &m.Runs[i])
				if err == nil && p != nil {
					err = reports.WriteRunPage(reportsDir, *p)
					links[i] = &reports.RunLink{Label: p.Dir, Href: reports.RunPagePath(p.Section, p.Dir)}
				}
				errs[i] = err
			}
		}()
	}
	for i := range m.Runs {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []reports.RunLink
	for i, l := range links {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if l != nil {
			out = append(out, *l)
		}
	}
	return out, nil
}

// runPage is the page of run r, or nil when its jobs.arrow is not there.
func runPage(dir, name string, r *ManifestRun) (*reports.RunPage, error) {
	out := filepath.Join(dir, filepath.FromSlash(r.Dir))
	jobs, err := results.ReadJobs(filepath.Join(out, results.JobsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
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
	return &p, nil
}
