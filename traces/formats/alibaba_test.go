package formats

import (
	"sojourn/internal/fuzzguard"
	"strings"
	"testing"
)

// alibabaSample is a hand-made batch_task.csv: j_1 maps then reduces,
// j_2 one stage, j_3 a chain of three, j_4 two independent stages, j_5
// failed, j_6 without DAG names; rows of a job apart and jobs out of
// submit order.
const alibabaSample = `M1,4,j_1,1,Terminated,100,160,100,0.5
task_abc,3,j_2,12,Terminated,50,55,50,1
M1,1,j_3,1,Terminated,10,20,100,1
R2_1,2,j_1,1,Terminated,170,200,200,1.5
M2_1,1,j_3,1,Terminated,20,30,100,1
R3_2,1,j_3,1,Terminated,30,40,100,1
M1,1,j_4,1,Terminated,10,20,100,1
M2,1,j_4,1,Terminated,10,20,100,1
M1,1,j_5,1,Failed,10,20,100,1
task_x,1,j_6,1,Terminated,10,20,100,1
task_y,1,j_6,1,Terminated,10,20,100,1
`

func TestAlibabaSample(t *testing.T) {
	jobs, imp, err := importString("alibaba2018", alibabaSample, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(jobs))
	}
	j := jobs[0] // sorted by submit: j_2 at 50 first
	eq(t, "j_2", []any{j.ID, j.Name, j.Submit, j.MapDurations, j.Reduces(), j.MapMemoryBytes, j.MapCores, j.SourceLine},
		[]any{int64(0), "j_2", 50.0, []float64{5, 5, 5}, 0, int64(DefaultMachineMemory / 100), 0.5, int64(2)})
	j = jobs[1]
	eq(t, "j_1", []any{j.ID, j.Name, j.Submit, j.MapDurations, j.ReduceDurations, j.ReduceShuffleBytes, j.MapMemoryBytes, j.ReduceMemoryBytes, j.MapCores, j.ReduceCores, j.SourceLine},
		[]any{int64(1), "j_1", 100.0, []float64{60, 60, 60, 60}, []float64{30, 30}, []int64{0, 0},
			memOf(0.5), memOf(1.5), 1.0, 2.0, int64(1)})
	notes := strings.Join(imp.Notes(), "\n")
	for _, want := range []string{"skipped 4 jobs", "3 stages, tree or chain", "2 independent stages", `status "Failed"`, "2 stages without DAG names"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	eq(t, "skipped param", imp.Params()["import.alibaba.jobs_skipped"], "4")
}

func TestAlibabaBad(t *testing.T) {
	checkBad(t, "alibaba2018", []badCase{
		{"empty file", "", 0, "", "empty file"},
		{"wrong field count", "M1,4,j_1,1,Terminated,100\n", 1, "", "wrong number of fields"},
		{"header given (non-numeric)", "task_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\n", 1, "2 (instance_num)", "not an integer"},
		{"non-numeric", "M1,4,j_1,1,Terminated,soon,160,100,0.5\n", 1, "6 (start_time)", "not an integer"},
		{"negative", "M1,-4,j_1,1,Terminated,100,160,100,0.5\n", 1, "2 (instance_num)", "from 0"},
		{"end before start", "M1,4,j_1,1,Terminated,100,60,100,0.5\n", 1, "7 (end_time)", "before start_time"},
		{"huge time", "M1,4,j_1,1,Terminated,100,9300000000000,100,0.5\n", 1, "7 (end_time)", "too large"},
		{"bad memory", "M1,4,j_1,1,Terminated,100,160,100,250\n", 1, "9 (plan_mem)", "0 to 100"},
		{"empty job name", "M1,4,,1,Terminated,100,160,100,1\n", 1, "3 (job_name)", "empty"},
	})
	// Unsorted submit times are sorted, not refused.
	jobs, _, err := importString("alibaba2018", "M1,1,j_9,1,Terminated,90,95,1,1\nM1,1,j_8,1,Terminated,10,15,1,1\n", Options{})
	if err != nil || len(jobs) != 2 || jobs[0].Name != "j_8" {
		t.Fatalf("unsorted rows: %v, %+v", err, jobs)
	}
}

func FuzzImportAlibaba(f *testing.F) {
	f.Add(alibabaSample)
	f.Add("M1,1,j_9,1,Terminated,90,95,1,1\n")
	f.Fuzz(func(t *testing.T, data string) {
		fuzzguard.Within(t, func() {
			_, _, err := importString("alibaba2018", data, Options{})
			fuzzCheck(t, err)
		})
	})
}

func memOf(planMem float64) int64 { return int64(planMem / 100 * float64(DefaultMachineMemory)) }
