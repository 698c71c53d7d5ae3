package formats

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sojourn/traces"
)

// CSVTaskColumns is the task table (--tasks): a header row, then one row
// per task, the tasks of a job together and the jobs in the job table's
// order.
var CSVTaskColumns = []CSVColumn{
	{csvJobID, "-", "the job's job_id in the job table (required)"},
	{csvKind, "-", "map or reduce (required)"},
	{csvDuration, "s", "the task's duration, a reduce's after its shuffle (required)"},
	{csvMemory, "bytes", "the task's memory; a job's tasks of one kind get their largest (default: the job table's, or --map-memory/--reduce-memory)"},
	{csvShuffle, "bytes", "a reduce's shuffle bytes (default 0)"},
}

// fillTasks reads the task table's rows of job j (nil: check that no
// rows are left).
func (c *CSV) fillTasks(j *traces.Job) error {
	t := c.tasks
	if j == nil {
		if c.pend {
			v, _ := t.get(csvJobID)
			return t.err(csvJobID, fmt.Errorf("job %s is not in the job table, or its tasks are not together in the job table's order", v))
		}
		ok, err := t.next()
		if err != nil {
			return err
		}
		if ok {
			v, _ := t.get(csvJobID)
			return t.err(csvJobID, fmt.Errorf("job %s is not in the job table, or its tasks are not together in the job table's order", v))
		}
		return nil
	}
	j.MapDurations, j.ReduceDurations, j.ReduceShuffleBytes = []float64{}, []float64{}, []int64{}
	mem := [2]int64{-1, -1}
	for {
		if !c.pend {
			ok, err := t.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			c.pend = true
		}
		v, _ := t.get(csvJobID)
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return t.err(csvJobID, fmt.Errorf("%s; want the integer job_id of a job in the job table", quote(v)))
		}
		if id != j.ID {
			break
		}
		c.pend = false
		kind, _ := t.get(csvKind)
		k := 0
		switch strings.ToLower(kind) {
		case "map":
		case "reduce":
			k = 1
		default:
			return t.err(csvKind, fmt.Errorf("%s; want map or reduce", quote(kind)))
		}
		dv, _ := t.get(csvDuration)
		d, err := parseSeconds(dv, "a task duration")
		if err != nil {
			return t.err(csvDuration, err)
		}
		if v, ok := t.get(csvMemory); ok {
			m, err := parseBytes(v, "task memory")
			if err != nil {
				return t.err(csvMemory, err)
			}
			mem[k] = max(mem[k], m)
		}
		var sh int64
		if v, ok := t.get(csvShuffle); ok {
			if k == 0 {
				return t.err(csvShuffle, errors.New("given for a map; only reduces have shuffle bytes"))
			}
			if sh, err = parseBytes(v, "shuffle bytes"); err != nil {
				return t.err(csvShuffle, err)
			}
		}
		if j.Maps()+j.Reduces() >= MaxTasks {
			return t.err(csvJobID, fmt.Errorf("job %d has more than %d tasks", j.ID, MaxTasks))
		}
		if k == 0 {
			j.MapDurations = append(j.MapDurations, d)
		} else {
			j.ReduceDurations = append(j.ReduceDurations, d)
			j.ReduceShuffleBytes = append(j.ReduceShuffleBytes, sh)
		}
	}
	if j.Maps() == 0 {
		return fieldErr(c.jobs.name, c.jobs.line, csvJobID, "job %d has no map task in the task table %s; want at least one (rows of a job together, jobs in the job table's order)", j.ID, t.name)
	}
	if mem[0] >= 0 {
		j.MapMemoryBytes = mem[0]
	}
	if mem[1] >= 0 {
		j.ReduceMemoryBytes = mem[1]
	}
	for k, col := range []string{csvMaps, csvReduces} {
		if v, ok := c.jobs.get(col); ok {
			n := []int{j.Maps(), j.Reduces()}[k]
			if v != strconv.Itoa(n) {
				return c.jobs.err(col, fmt.Errorf("%s, but the task table has %d", v, n))
			}
		}
	}
	if _, ok := c.jobs.get(csvShuffle); !ok {
		var sum int64
		for _, b := range j.ReduceShuffleBytes {
			if sum += b; sum < 0 {
				return c.jobs.err(csvShuffle, errors.New("the tasks' shuffle bytes overflow int64"))
			}
		}
		j.ShuffleBytes = sum
	}
	return nil
}
