package formats

import (
	"sojourn/internal/fuzzguard"
	"strings"
	"testing"

	"sojourn/traces"
)

const csvSample = `job_id,name,submit_s,pool,priority,class,maps,reduces,map_durations_s,reduce_durations_s,map_memory_bytes,reduce_memory_bytes,estimate_s,map_cores,reduce_cores,map_input_bytes,shuffle_bytes,output_bytes,reduce_shuffle_bytes
7,sort,0,alice,HIGH,big,2,1,10 12.5,30,1048576,2097152,60,1.5,,1000,300,20,300
9,"grep, fast",1.25,bob,-1,,1,0,4,,,,,,,,,,
`

// TestCSVSample checks every field of a hand-made job table.
func TestCSVSample(t *testing.T) {
	jobs, imp, err := importString("csv", csvSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d jobs", len(jobs))
	}
	j := jobs[0]
	eq(t, "job 7", []any{j.ID, j.Name, j.Submit, j.Pool, j.Priority, j.Class, j.MapDurations, j.ReduceDurations,
		j.MapMemoryBytes, j.ReduceMemoryBytes, j.HasEstimate, j.Estimate, j.MapCores, j.ReduceCores, j.MapInputBytes, j.ShuffleBytes, j.OutputBytes, j.ReduceShuffleBytes, j.SourceLine},
		[]any{int64(7), "sort", 0.0, "alice", traces.High, "big", []float64{10, 12.5}, []float64{30},
			int64(1 << 20), int64(2 << 20), true, 60.0, 1.5, 0.0, int64(1000), int64(300), int64(20), []int64{300}, int64(2)})
	j = jobs[1]
	eq(t, "job 9", []any{j.ID, j.Name, j.Submit, j.Pool, j.Priority, j.Class, j.MapDurations, j.ReduceDurations,
		j.MapMemoryBytes, j.ReduceMemoryBytes, j.HasEstimate, j.ReduceShuffleBytes, j.SourceLine},
		[]any{int64(9), "grep, fast", 1.25, "bob", traces.Low, "", []float64{4}, []float64{},
			int64(DefaultMapMemory), int64(DefaultReduceMemory), false, []int64{}, int64(3)})
	eq(t, "params", imp.Params()["import.format"], "csv")
}

// TestCSVMeans: means with skew are reproducible from the seed, keep the
// mean on average, and skew 0 gives every task the mean.
func TestCSVMeans(t *testing.T) {
	data := "submit_s,maps,reduces,map_mean_s,reduce_mean_s,skew\n0,4000,2,10,20,0.5\n3,3,0,7,,\n"
	a, _, err := importString("csv", data, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := importString("csv", data, Options{Seed: 3})
	eq(t, "same seed", a, b)
	var sum float64
	for _, d := range a[0].MapDurations {
		sum += d
	}
	if m := sum / 4000; m < 9.5 || m > 10.5 {
		t.Errorf("mean map duration %v, want about 10", m)
	}
	eq(t, "no skew", a[1].MapDurations, []float64{7, 7, 7})
	eq(t, "ids by row", []int64{a[0].ID, a[1].ID}, []int64{0, 1})
}

// TestCSVTaskTable: durations, memory and shuffle bytes from a task table.
func TestCSVTaskTable(t *testing.T) {
	jobsCSV := "job_id,submit_s,pool,estimate_s\n1,0,a,\n2,5,b,99\n"
	tasksCSV := "job_id,kind,duration_s,memory_bytes,shuffle_bytes\n1,map,3,100,\n1,map,4,300,\n1,reduce,9,50,77\n2,map,1.5,,\n"
	jobs, imp, err := importString("csv", jobsCSV, Options{Tasks: strings.NewReader(tasksCSV), TasksName: "tasks.csv"})
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "job 1", []any{jobs[0].MapDurations, jobs[0].ReduceDurations, jobs[0].MapMemoryBytes, jobs[0].ReduceMemoryBytes, jobs[0].ReduceShuffleBytes, jobs[0].ShuffleBytes},
		[]any{[]float64{3, 4}, []float64{9}, int64(300), int64(50), []int64{77}, int64(77)})
	eq(t, "job 2", []any{jobs[1].MapDurations, jobs[1].MapMemoryBytes, jobs[1].Estimate, jobs[1].SourceLine},
		[]any{[]float64{1.5}, int64(DefaultMapMemory), 99.0, int64(3)})
	eq(t, "tasks param", imp.Params()["import.tasks"], "tasks.csv")
	bad := "job_id,kind,duration_s\n2,map,1\n1,map,4\n"
	_, _, err = importString("csv", jobsCSV, Options{Tasks: strings.NewReader(bad), TasksName: "tasks.csv"})
	if err == nil || !strings.Contains(err.Error(), "no map task in the task table") {
		t.Errorf("tasks out of the job table's order: %v", err)
	}
	bad = "job_id,kind,duration_s\n1,map,1\n2,map,1\n3,map,1\n"
	_, _, err = importString("csv", jobsCSV, Options{Tasks: strings.NewReader(bad), TasksName: "tasks.csv"})
	if err == nil || !strings.Contains(err.Error(), "tasks.csv:4: field job_id") {
		t.Errorf("a task of an unknown job: %v", err)
	}
}

// TestCSVRoundTrip: export then import gives back every field of every
// job but source_line.
func TestCSVRoundTrip(t *testing.T) {
	jobs, _, err := importString("csv", csvSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	jobs[1].Name = `with "quotes"`
	back := roundTrip(t, "csv", jobs, nil)
	for i := range jobs {
		jobs[i].SourceLine, back[i].SourceLine = 0, 0
	}
	eq(t, "round trip", back, jobs)
}

func TestCSVBad(t *testing.T) {
	h := "submit_s,maps,reduces,map_durations_s,reduce_durations_s\n"
	checkBad(t, "csv", []badCase{
		{"empty file", "", 0, "", "empty file"},
		{"missing header", "0,1,0,5,\n", 1, `"0"`, "unknown column in the header"},
		{"no submit column", "maps,reduces,map_durations_s\n1,0,5\n", 1, "submit_s", "missing"},
		{"no durations", "submit_s,maps,reduces\n0,1,0\n", 1, "", "no durations"},
		{"wrong field count", h + "0,1,0,5\n", 2, "", "wrong number of fields"},
		{"non-numeric", h + "x,1,0,5,\n", 2, "submit_s", "not a number"},
		{"negative", h + "0,1,0,-5,\n", 2, "map_durations_s", "negative"},
		{"negative count", h + "0,-1,0,5,\n", 2, "maps", "want a number of tasks from 1"},
		{"list length", h + "0,2,0,5,\n", 2, "map_durations_s", "1 values for 2 tasks"},
		{"unsorted submit times", h + "5,1,0,5,\n4,1,0,5,\n", 3, "submit_s", "before the previous job's"},
		{"huge submit", h + "9.3e12,1,0,5,\n", 2, "submit_s", "too large"},
		{"huge duration", h + "0,1,0,1e13,\n", 2, "map_durations_s", "too large"},
		{"NaN", h + "NaN,1,0,5,\n", 2, "submit_s", "finite"},
		{"bad priority", "submit_s,maps,reduces,map_durations_s,priority\n0,1,0,5,URGENT\n", 2, "priority", "unknown priority"},
		{"bad estimate", "submit_s,maps,reduces,map_durations_s,estimate_s\n0,1,0,5,-3\n", 2, "estimate_s", "negative"},
		{"bad cores", "submit_s,maps,reduces,map_durations_s,map_cores\n0,1,0,5,-3\n", 2, "map_cores", "from 0 to 1e9"},
		{"bare quote", h + "0,1,0,\"5,\n", 2, "", "quote"},
	})
}

func FuzzImportCSV(f *testing.F) {
	f.Add(csvSample)
	f.Add("submit_s,maps,reduces,map_mean_s,reduce_mean_s,skew\n0,4,2,10,20,0.5\n")
	f.Add("job_id,submit_s,maps,reduces,map_durations_s,reduce_shuffle_bytes\n3,1,1,1,5,\n")
	f.Fuzz(func(t *testing.T, data string) {
		fuzzguard.Within(t, func() {
			_, _, err := importString("csv", data, Options{})
			fuzzCheck(t, err)
		})
	})
}
