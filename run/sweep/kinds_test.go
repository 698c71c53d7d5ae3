package sweep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sojourn/traces"
)

// TestTaskKindsRefusedBeforeRun: a cell whose slot-model cluster file has
// no map slot, or no reduce slot while its workload has reduces, is
// refused before any cell runs with one line naming the sweep file, the
// cell, the cluster file and (for reduces) the first job with reduces;
// nothing is written. A map-only trace on a cluster without reduce slots
// runs.
func TestTaskKindsRefusedBeforeRun(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "nored.txt", "nodes count=3 map-slots=2 reduce-slots=0\n")
	writeFile(t, dir, "nomap.txt", "nodes count=3 map-slots=0 reduce-slots=2\n")
	mapOnly := &traces.Trace{Params: map[string]string{}, Jobs: []traces.Job{
		{ID: 0, Submit: 0, MapInputBytes: 1, MapDurations: []float64{5, 5}},
		{ID: 1, Submit: 1, MapInputBytes: 1, MapDurations: []float64{3}},
	}}
	if err := traces.Write(filepath.Join(dir, "maponly.arrow"), mapOnly); err != nil {
		t.Fatal(err)
	}
	withReduce := &traces.Trace{Params: map[string]string{}, Jobs: []traces.Job{
		{ID: 4, Submit: 0, MapInputBytes: 1, MapDurations: []float64{5}},
		{ID: 9, Submit: 1, MapInputBytes: 1, MapDurations: []float64{5}, ReduceDurations: []float64{2, 2}, ReduceShuffleBytes: []int64{0, 0}},
	}}
	if err := traces.Write(filepath.Join(dir, "reduce.arrow"), withReduce); err != nil {
		t.Fatal(err)
	}
	const head = `{"name": "k", "policies": ["fifo"], `
	for _, c := range []struct {
		name, spec, want string
	}{
		{"no map slot", head + `"workloads": [{"name": "t", "trace": "maponly.arrow"}], "fixed": {"cluster": "nomap.txt"}}`,
			"cell 0 (t fifo seed=1): cluster " + filepath.Join(dir, "nomap.txt") + ": no node has a map slot; every job has maps"},
		{"no reduce slot, a trace", head + `"workloads": [{"name": "t", "trace": "maponly.arrow"}, {"name": "r", "trace": "reduce.arrow"}], "parameters": {"cluster": ["nored.txt"]}}`,
			"cell 1 (r fifo cluster=nored.txt seed=1): cluster " + filepath.Join(dir, "nored.txt") + ": no node has a reduce slot; job 9 (row 1) of " + filepath.Join(dir, "reduce.arrow") + " has 2 reduces"},
		{"no reduce slot, a profile", head + `"workloads": [{"name": "g", "profile": "fb2009", "jobs": 50}], "fixed": {"cluster": "nored.txt"}, "seeds": [3]}`,
			"cell 0 (g fifo seed=3): cluster " + filepath.Join(dir, "nored.txt") + ": no node has a reduce slot; job "},
	} {
		path := writeFile(t, dir, "s.json", c.spec)
		p, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out := filepath.Join(dir, "out")
		_, err = runner(out, &counter{}).Run(context.Background(), p)
		if err == nil || err.Error() != path+": "+c.want && !strings.HasPrefix(err.Error(), path+": "+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v; want one line %q", c.name, err, path+": "+c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", c.name, out)
		}
	}

	// Map-only: runs on the cluster without reduce slots.
	path := writeFile(t, dir, "s.json", head+`"workloads": [{"name": "t", "trace": "maponly.arrow"}], "fixed": {"cluster": "nored.txt"}}`)
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runner(filepath.Join(dir, "ok"), &counter{}).Run(context.Background(), p)
	if err != nil || rep.Ran != 1 || !rep.Done {
		t.Errorf("map-only trace, no reduce slot: %+v, %v; want 1 cell run", rep, err)
	}
}
