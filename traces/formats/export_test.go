package formats

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
	"sojourn/traces"
)

// carried is what the format's importer reads back of j, the row-th job
// exported in format: the fields the format holds, and for the others
// what the importer puts in their place. users maps SWF users back to
// the pools they were written for.
func carried(format string, j traces.Job, row int) traces.Job {
	c := j
	c.SourceLine = 0
	switch format {
	case "csv":
		if c.Name == "" {
			c.Name = strconv.FormatInt(c.ID, 10)
		}
		if c.Pool == "" {
			c.Pool = "default"
		}
	case "swf":
		procs := j.Maps() + j.Reduces()
		run, same, work := j.MapDurations[0], true, 0.0
		for _, ds := range [][]float64{j.MapDurations, j.ReduceDurations} {
			for _, d := range ds {
				work += d
				same = same && d == j.MapDurations[0]
			}
		}
		if !same {
			run = min(work/float64(procs), MaxSeconds)
		}
		c.Name = strconv.FormatInt(j.ID, 10)
		c.Priority, c.Class = traces.Normal, ""
		c.MapInputBytes, c.ShuffleBytes, c.OutputBytes = 0, 0, 0
		c.MapDurations = make([]float64, procs)
		for i := range c.MapDurations {
			c.MapDurations[i] = run
		}
		c.ReduceDurations, c.ReduceShuffleBytes = []float64{}, []int64{}
		c.MapMemoryBytes = (j.MapMemoryBytes + 1023) / 1024 * 1024
		c.ReduceMemoryBytes = DefaultReduceMemory
		c.MapCores, c.ReduceCores = 0, 0
		c.Rigid = true
		if j.HasEstimate {
			c.Estimate = j.Estimate / float64(procs) * float64(procs)
		}
	case "sls":
		c.ID = int64(row)
		c.Submit = float64(ms(j.Submit)) / 1000
		c.Priority, c.Class = traces.Normal, ""
		c.MapInputBytes, c.ShuffleBytes, c.OutputBytes = 0, 0, 0
		c.MapDurations, c.ReduceDurations = msAll(j.MapDurations), msAll(j.ReduceDurations)
		c.ReduceShuffleBytes = make([]int64, j.Reduces())
		c.MapMemoryBytes, _ = mib(j.MapMemoryBytes)
		c.MapMemoryBytes <<= 20
		c.ReduceMemoryBytes = DefaultReduceMemory
		if j.Reduces() > 0 {
			c.ReduceMemoryBytes, _ = mib(j.ReduceMemoryBytes)
			c.ReduceMemoryBytes <<= 20
		}
		c.MapCores, c.ReduceCores = math.Ceil(j.MapCores), math.Ceil(j.ReduceCores)
		if j.Reduces() == 0 {
			c.ReduceCores = 0
		}
		c.Estimate, c.HasEstimate, c.Rigid = 0, false, false
	}
	return c
}

func msAll(ds []float64) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(ms(d)) / 1000
	}
	return out
}

// exportJobs exports jobs in format.
func exportJobs(format string, jobs []traces.Job) (string, []string, error) {
	var buf bytes.Buffer
	i := 0
	notes, err := Export(format, &buf, nil, func(j *traces.Job) error {
		if i == len(jobs) {
			return io.EOF
		}
		*j = jobs[i]
		i++
		return nil
	})
	return buf.String(), notes, err
}

// checkRoundTrip exports jobs in every format and imports them back: the
// jobs read back are carried(jobs), every SWF pool maps to one user and
// back, and an export that fails does so with an *ExportError of one line.
func checkRoundTrip(t *testing.T, jobs []traces.Job) {
	t.Helper()
	for _, format := range ExportFormats {
		data, notes, err := exportJobs(format, jobs)
		if err != nil {
			var ee *ExportError
			if !errors.As(err, &ee) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: export error %q; want one line naming the row", format, err)
			}
			continue
		}
		back, _, err := importString(format, data, Options{})
		if err != nil {
			t.Fatalf("%s: its export does not import: %v\n%s", format, err, data)
		}
		if len(back) != len(jobs) {
			t.Fatalf("%s: %d jobs back, want %d", format, len(back), len(jobs))
		}
		pools, users := map[string]string{}, map[string]string{}
		for i := range jobs {
			want, got := carried(format, jobs[i], i), back[i]
			got.SourceLine = 0
			orig := jobs[i]
			orig.SourceLine = 0
			if !reflect.DeepEqual(orig, want) && len(notes) == 0 {
				t.Fatalf("%s: job %d read back changed, without a note", format, i)
			}
			if format == "swf" {
				if p, ok := pools[jobs[i].Pool]; ok && p != got.Pool {
					t.Fatalf("swf: pool %q read back as %q and %q", jobs[i].Pool, p, got.Pool)
				}
				if p, ok := users[got.Pool]; ok && p != jobs[i].Pool {
					t.Fatalf("swf: pools %q and %q both read back as %q", p, jobs[i].Pool, got.Pool)
				}
				pools[jobs[i].Pool], users[got.Pool] = got.Pool, jobs[i].Pool
				if jobs[i].Pool == "unknown" || canonicalUser(jobs[i].Pool) {
					if got.Pool != jobs[i].Pool {
						t.Fatalf("swf: pool %q read back as %q", jobs[i].Pool, got.Pool)
					}
				} else if len(notes) == 0 {
					t.Fatalf("swf: pool %q renamed without a note", jobs[i].Pool)
				}
				want.Pool = got.Pool
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: job %d read back as\n%+v\nwant\n%+v\nfrom the file\n%s", format, i, got, want, data)
			}
		}
	}
}

func canonicalUser(pool string) bool {
	n, ok := strings.CutPrefix(pool, "u")
	v, err := strconv.ParseInt(n, 10, 64)
	return ok && err == nil && v >= 0 && v <= swfMax && "u"+strconv.FormatInt(v, 10) == pool
}

// fuzzJobs makes a valid trace of a few jobs from a seed, with the
// strings and numbers the fuzzer gives placed in them.
func fuzzJobs(seed uint64, name, pool, class string, x float64, mem int64) []traces.Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 1 + rng.IntN(4)
	pools := []string{pool, "u" + strconv.Itoa(rng.IntN(3)), "unknown", "u1000000", "default", ""}
	num := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return math.Abs(x)
		case 1:
			return 0
		case 2:
			return float64(rng.IntN(1000)) / 8
		case 3:
			return rng.Float64() * 1e4
		case 4:
			return 0.0005 + float64(rng.IntN(5))
		}
		return float64(rng.IntN(100))
	}
	var jobs []traces.Job
	submit := 0.0
	for i := range n {
		submit += num()
		j := traces.Job{ID: int64(i) * int64(1+rng.IntN(3)), Name: [...]string{name, "", strconv.Itoa(i * 2)}[rng.IntN(3)],
			Submit: submit, Pool: pools[rng.IntN(len(pools))], Priority: traces.Priority(rng.IntN(5) - 2),
			Class: [...]string{"", class}[rng.IntN(2)], MapMemoryBytes: [...]int64{mem, 512 << 20, 1000}[rng.IntN(3)],
			ReduceMemoryBytes: [...]int64{mem, 1 << 30, 3}[rng.IntN(3)]}
		if j.MapMemoryBytes < 0 {
			j.MapMemoryBytes = -(j.MapMemoryBytes + 1)
		}
		if j.ReduceMemoryBytes < 0 {
			j.ReduceMemoryBytes = -(j.ReduceMemoryBytes + 1)
		}
		maps, reds := 1+rng.IntN(4), rng.IntN(3)
		j.Rigid = reds == 0 && rng.IntN(2) == 0
		same := rng.IntN(2) == 0
		d0 := num()
		for range maps {
			if !same {
				d0 = num()
			}
			j.MapDurations = append(j.MapDurations, d0)
		}
		j.ReduceDurations, j.ReduceShuffleBytes = []float64{}, []int64{}
		for range reds {
			j.ReduceDurations = append(j.ReduceDurations, num())
			j.ReduceShuffleBytes = append(j.ReduceShuffleBytes, int64(rng.IntN(3))*1000)
		}
		if rng.IntN(2) == 0 {
			j.Estimate, j.HasEstimate = num(), true
		}
		if rng.IntN(2) == 0 {
			j.MapCores, j.ReduceCores = num(), float64(rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			j.MapInputBytes, j.OutputBytes = int64(rng.IntN(1<<30)), 7
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// TestExportRoundTrip: the cases the first exporters lost, each read
// back as it was written.
func TestExportRoundTrip(t *testing.T) {
	base := func() traces.Job {
		return traces.Job{ID: 3, Name: "a", Pool: "u7", MapDurations: []float64{1}, ReduceDurations: []float64{},
			ReduceShuffleBytes: []int64{}, MapMemoryBytes: 1 << 20, ReduceMemoryBytes: 1 << 30, Rigid: true}
	}
	for _, c := range []struct {
		name string
		edit func(j *traces.Job)
	}{
		{"control characters and a tag character", func(j *traces.Job) { j.Name, j.Pool = "x\x01\x7f\U000e0001<&>", "\u2028q\"\\" }},
		{"largest SWF job number", func(j *traces.Job) { j.ID = 1e15 }},
		{"job number beyond 2^53", func(j *traces.Job) { j.ID = 1<<53 + 1 }},
		{"memory below a KB", func(j *traces.Job) { j.MapMemoryBytes = 1000 }},
		{"memory below a MiB", func(j *traces.Job) { j.MapMemoryBytes = 5 }},
		{"pool named like a numbered user", func(j *traces.Job) { j.Pool = "u1000000" }},
		{"empty name and pool", func(j *traces.Job) { j.Name, j.Pool = "", "" }},
		{"name with a newline and a quote", func(j *traces.Job) { j.Name = "a\n\"b\"," }},
	} {
		t.Run(c.name, func(t *testing.T) {
			j1, j2 := base(), base()
			j2.ID, j2.Pool, j2.Submit = 4, "x", 1
			c.edit(&j1)
			checkRoundTrip(t, []traces.Job{j1, j2})
		})
	}
}

// TestExportRefuses: a value the format's importer cannot read back is an
// error naming the row, before anything is written.
func TestExportRefuses(t *testing.T) {
	ok := traces.Job{ID: 1, Name: "a", Pool: "p", MapDurations: []float64{1}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	for _, c := range []struct {
		name, format, msg string
		edit              func(j *traces.Job)
	}{
		{"swf id beyond its importer", "swf", "job numbers up to", func(j *traces.Job) { j.ID = math.MaxInt64 }},
		{"submit beyond 1e9 s", "csv", "submit time", func(j *traces.Job) { j.Submit = 2e9 }},
		{"duration beyond 1e9 s", "sls", "lasts", func(j *traces.Job) { j.MapDurations[0] = 5e9 }},
		{"name with spaces", "csv", "leading or trailing spaces", func(j *traces.Job) { j.Name = " a" }},
		{"carriage return", "csv", "carriage return", func(j *traces.Job) { j.Class = "a\r\nb" }},
		{"invalid UTF-8", "sls", "not UTF-8", func(j *traces.Job) { j.Pool = "a\xffb" }},
		{"a row beyond MaxLine", "csv", "rows of at most", func(j *traces.Job) {
			j.MapDurations = make([]float64, MaxLine/4)
			for i := range j.MapDurations {
				j.MapDurations[i] = 1.0625
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := ok
			j.MapDurations = []float64{1}
			c.edit(&j)
			data, _, err := exportJobs(c.format, []traces.Job{ok, j})
			var ee *ExportError
			if !errors.As(err, &ee) || ee.Row != 1 || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v; want an *ExportError at row 1 saying %q", err, c.msg)
			}
			if data != "" {
				t.Errorf("wrote %d bytes before the error", len(data))
			}
		})
	}
}

// FuzzExportRoundTrip: import(export(t)) is carried(t) for every format,
// or the export fails with one line naming the row.
func FuzzExportRoundTrip(f *testing.F) {
	f.Add(uint64(1), "job", "p", "small", 1.5, int64(512<<20))
	f.Add(uint64(2), "\x01\U000e0001", "u1000000", "", 1e-300, int64(1000))
	f.Add(uint64(3), "a,\"b\"\n", " p", "c\r", 1e9, int64(-1))
	f.Fuzz(func(t *testing.T, seed uint64, name, pool, class string, x float64, mem int64) {
		jobs := fuzzJobs(seed, name, pool, class, x, mem)
		if (&traces.Trace{Jobs: jobs}).Validate() != nil {
			return
		}
		fuzzguard.Within(t, func() { checkRoundTrip(t, jobs) })
	})
}
