package formats

import (
	"sojourn/internal/fuzzguard"
	"strings"
	"testing"
)

// slsSample has the shape of hadoop-sls's sample traces (pretty-printed
// job objects one after another), written by hand.
const slsSample = `{
  "am.type": "mapreduce",
  "job.start.ms": 0,
  "job.end.ms": 95375,
  "job.queue.name": "sls_queue_1",
  "job.id": "job_1",
  "job.user": "default",
  "job.tasks": [
    {
      "container.host": "/default-rack/node1",
      "container.start.ms": 6664,
      "container.end.ms": 23707,
      "container.priority": 20,
      "container.type": "map"
    },
    {
      "container.host": "/default-rack/node3",
      "container.duration.ms": "1500",
      "container.priority": 10,
      "container.type": "reduce",
      "container.memory-mb": 2048,
      "container.vcores": 2,
      "count": 2
    }
  ]
}
{"am.type": "stream", "job.start.ms": 50, "job.tasks": [{"container.duration.ms": 5}]}
{"job.start.ms": 105204, "job.tasks": [{"duration.ms": 19589}]}
`

func TestSLSSample(t *testing.T) {
	jobs, imp, err := importString("sls", slsSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2 (the stream job skipped)", len(jobs))
	}
	j := jobs[0]
	eq(t, "job_1", []any{j.ID, j.Name, j.Submit, j.Pool, j.MapDurations, j.ReduceDurations, j.ReduceShuffleBytes,
		j.MapMemoryBytes, j.ReduceMemoryBytes, j.MapCores, j.ReduceCores, j.HasEstimate, j.SourceLine},
		[]any{int64(0), "job_1", 0.0, "sls_queue_1", []float64{17.043}, []float64{1.5, 1.5}, []int64{0, 0},
			int64(DefaultMapMemory), int64(2048 << 20), 0.0, 2.0, false, int64(1)})
	j = jobs[1]
	eq(t, "third object", []any{j.ID, j.Name, j.Submit, j.Pool, j.MapDurations, j.SourceLine},
		[]any{int64(2), "2", 105.204, "default", []float64{19.589}, int64(28)})
	if n := strings.Join(imp.Notes(), "\n"); !strings.Contains(n, `skipped 1 jobs: am.type "stream"`) {
		t.Errorf("notes %q", n)
	}
}

// TestSLSRoundTrip: export then import keeps submit, name, pool, task
// kinds and durations (to the ms), memory (whole MiB) and cores (whole).
func TestSLSRoundTrip(t *testing.T) {
	jobs, _, err := importString("sls", slsSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	back := roundTrip(t, "sls", jobs, nil)
	for i := range jobs {
		a, b := jobs[i], back[i]
		eq(t, "fields", []any{b.Submit, b.Name, b.Pool, b.MapDurations, b.ReduceDurations, b.MapMemoryBytes, b.ReduceMemoryBytes, b.MapCores, b.ReduceCores},
			[]any{a.Submit, a.Name, a.Pool, a.MapDurations, a.ReduceDurations, a.MapMemoryBytes, a.ReduceMemoryBytes, a.MapCores, a.ReduceCores})
	}
}

func TestSLSBad(t *testing.T) {
	checkBad(t, "sls", []badCase{
		{"empty file", "  \n", 0, "", "empty file"},
		{"not an object (missing header)", "[1, 2]\n", 1, "", "want a JSON object per job"},
		{"truncated", "{\"job.start.ms\": 0,\n \"job.tasks\": [\n", 1, "", "ends inside a JSON object"},
		{"wrong field type", "{\"job.start.ms\": 0, \"job.tasks\": 5}\n", 1, "job.tasks", "not a list"},
		{"non-numeric", "{\"job.start.ms\": \"soon\", \"job.tasks\": []}\n", 1, "job.start.ms", "want an integer"},
		{"negative", "{\"job.start.ms\": 0, \"job.tasks\": [\n{\"container.duration.ms\": -5}]}\n", 2, "container.duration.ms", "negative"},
		{"task line after a nested object", "{\"job.start.ms\": 0, \"x\": [{\"y\": 1},\n {}],\n \"job.tasks\": [\n{\"duration.ms\": 1},\n{\"duration.ms\": -1}]}\n", 5, "duration.ms", "negative"},
		{"end before start", "{\"job.start.ms\": 0, \"job.tasks\": [\n{\"container.start.ms\": 9,\n \"container.end.ms\": 5}]}\n", 3, "container.end.ms", "before"},
		{"unsorted", "{\"job.start.ms\": 10, \"job.tasks\": [{\"duration.ms\": 1}]}\n{\"job.start.ms\": 5,\n \"job.tasks\": [{\"duration.ms\": 1}]}\n", 2, "job.start.ms", "before the previous job's"},
		{"missing start", "{\"job.tasks\": [{\"duration.ms\": 1}]}\n", 1, "job.start.ms", "missing"},
		{"no map", "{\"job.start.ms\": 0, \"job.tasks\": [{\"duration.ms\": 1, \"container.type\": \"reduce\"}]}\n", 1, "job.tasks", "no map"},
		{"huge start", "{\"job.start.ms\": 9300000000000000, \"job.tasks\": [{\"duration.ms\": 1}]}\n", 1, "job.start.ms", "too large"},
		{"huge duration", "{\"job.start.ms\": 0, \"job.tasks\": [{\"container.duration.ms\": 9300000000000000}]}\n", 1, "container.duration.ms", "too large"},
		{"overflowing int", "{\"job.start.ms\": 99999999999999999999, \"job.tasks\": []}\n", 1, "job.start.ms", "want an integer"},
		{"bad JSON", "{\"job.start.ms\": 0,\n,}\n", 2, "", "not JSON"},
		{"repeated job", "{\"job.start.ms\": 0, \"job.count\": 3, \"job.tasks\": [{\"duration.ms\": 1}]}\n", 1, "job.count", "not supported"},
	})
}

func FuzzImportSLS(f *testing.F) {
	f.Add(slsSample)
	f.Add(`{"job.start.ms": 1, "job.tasks": [{"container.start.ms": 1, "container.end.ms": 3, "count": 2}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		fuzzguard.Within(t, func() {
			_, _, err := importString("sls", data, Options{})
			fuzzCheck(t, err)
		})
	})
}
