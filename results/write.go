package results

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"sojourn/replay"
	"sojourn/traces"
)

// File names inside a result directory.
const (
	JobsFile      = "jobs.arrow"
	TasksFile     = "tasks.arrow"
	OccupancyFile = "occupancy.arrow"
)

const batchRows = 1 << 16

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Metadata describes a run for the schema metadata of its result files:
// the policy, every cluster parameter, and the trace's own parameters
// (prefixed "trace.").
func Metadata(r *replay.Result, tr *traces.Trace, extra map[string]string) map[string]string {
	return RunMetadata(r.Scheduler, r.Config, tr, extra)
}

// RunMetadata is Metadata before the run: for the policy named scheduler
// on the cluster c.
func RunMetadata(scheduler string, c replay.Config, tr *traces.Trace, extra map[string]string) map[string]string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	md := map[string]string{
		"scheduler":                     scheduler,
		"replay.seed":                   strconv.FormatUint(c.Seed, 10),
		"replay.nodes":                  strconv.Itoa(c.Nodes),
		"replay.nodes_per_rack":         strconv.Itoa(c.NodesPerRack),
		"replay.map_slots":              strconv.Itoa(c.MapSlots),
		"replay.reduce_slots":           strconv.Itoa(c.ReduceSlots),
		"replay.replication":            strconv.Itoa(c.Replication),
		"replay.heartbeat_s":            f(c.Heartbeat),
		"replay.out_of_band_heartbeat":  strconv.FormatBool(c.OutOfBandHeartbeat),
		"replay.rack_local_factor":      f(c.RackLocalFactor),
		"replay.off_rack_factor":        f(c.OffRackFactor),
		"replay.slow_start":             f(c.SlowStart),
		"replay.shuffle_bandwidth_Bps":  f(c.ShuffleBandwidth),
		"replay.disk_bandwidth_Bps":     f(c.DiskBandwidth),
		"replay.max_suspended_per_node": strconv.Itoa(c.MaxSuspendedPerNode),
		"replay.mtbf_s":                 f(c.MTBF),
		"replay.mttr_s":                 f(c.MTTR),
		"replay.speed_sigma":            f(c.SpeedSigma),
	}
	if c.Model == replay.ContainerModel {
		i := func(x int64) string { return strconv.FormatInt(x, 10) }
		md["replay.model"] = c.Model.String()
		md["replay.node_memory_mb"] = i(c.NodeMemoryMB)
		md["replay.node_vcores"] = i(c.NodeVcores)
		md["replay.min_allocation_mb"] = i(c.MinAllocationMB)
		md["replay.min_allocation_vcores"] = i(c.MinAllocationVcores)
		md["replay.map_memory_mb"] = i(c.MapMemoryMB)
		md["replay.reduce_memory_mb"] = i(c.ReduceMemoryMB)
		md["replay.am_memory_mb"] = i(c.AMMemoryMB)
		md["replay.am_vcores"] = i(c.AMVcores)
		md["replay.max_am_share"] = f(c.MaxAMShare)
	}
	if c.Cluster != nil {
		// The nodes one by one would be long: their totals and a digest
		// of the list identify the cluster.
		var slots [2]int64
		var mem, vcores int64
		h := fnv.New64a()
		for _, n := range c.Cluster {
			slots[0] += int64(n.MapSlots)
			slots[1] += int64(n.ReduceSlots)
			mem += n.MemoryMB
			vcores += n.Vcores
			fmt.Fprintf(h, "%d %d %d %d %d %v %g;", n.Rack, n.MapSlots, n.ReduceSlots, n.MemoryMB, n.Vcores, n.Extra, n.Speed)
		}
		md["replay.cluster_nodes"] = strconv.Itoa(len(c.Cluster))
		md["replay.cluster_racks"] = strconv.Itoa(int(c.Cluster[len(c.Cluster)-1].Rack) + 1)
		md["replay.cluster_map_slots"] = strconv.FormatInt(slots[0], 10)
		md["replay.cluster_reduce_slots"] = strconv.FormatInt(slots[1], 10)
		md["replay.cluster_memory_mb"] = strconv.FormatInt(mem, 10)
		md["replay.cluster_vcores"] = strconv.FormatInt(vcores, 10)
		md["replay.cluster_digest"] = fmt.Sprintf("%016x", h.Sum64())
	}
	if tr != nil {
		for k, v := range tr.Params {
			md["trace."+k] = v
		}
	}
	for k, v := range extra {
		md[k] = v
	}
	return md
}

// WriteAll writes jobs.arrow and, when the run recorded them, tasks.arrow
// and occupancy.arrow into dir.
func WriteAll(dir string, r *replay.Result, md map[string]string) error {
	if err := WriteJobs(filepath.Join(dir, JobsFile), r, md); err != nil {
		return err
	}
	if r.Config.RecordTasks {
		if err := WriteTasks(filepath.Join(dir, TasksFile), r, md); err != nil {
			return err
		}
	}
	if r.Config.RecordOccupancy {
		if err := WriteOccupancy(filepath.Join(dir, OccupancyFile), r, md); err != nil {
			return err
		}
	}
	return nil
}

// writeTable writes n rows in batches; fill appends rows [lo, hi) to b.
// It is a Stream's table written in one go, so the two give the same
// bytes.
func writeTable(path string, schema *arrow.Schema, n int, fill func(b *array.RecordBuilder, lo, hi int)) error {
	t, err := newTableStream(path, schema)
	if err != nil {
		return err
	}
	if err := t.write(n, fill); err != nil {
		t.abort()
		return err
	}
	return t.commit()
}

func nullableSec(b *array.Float64Builder, t replay.Time, valid bool) {
	if valid {
		b.Append(t.Sec())
	} else {
		b.AppendNull()
	}
}

// WriteJobs writes one row per job.
func WriteJobs(path string, r *replay.Result, md map[string]string) error {
	schema := schemaOf(JobColumns, md, "jobs")
	return writeTable(path, schema, len(r.Jobs), func(b *array.RecordBuilder, lo, hi int) { fillJobs(b, r, md, lo, hi) })
}

// fillJobs appends jobs [lo, hi) to a jobs batch; the policy, seed and
// workload columns come from the run's metadata md.
func fillJobs(b *array.RecordBuilder, r *replay.Result, md map[string]string, lo, hi int) {
	if hi <= lo {
		return
	}
	seed, err := strconv.ParseUint(md["replay.seed"], 10, 64)
	if err != nil {
		seed = r.Config.Seed
	}
	policy := md["scheduler"]
	if policy == "" {
		policy = r.Scheduler
	}
	zeros := make([]int8, hi-lo)
	appendCodes(b.Field(0), zeros, []string{policy})
	b.Field(1).(*array.Uint64Builder).AppendValues(repeat(seed, hi-lo), nil)
	appendCodes(b.Field(2), zeros, []string{md[KeyWorkload]})
	for i := lo; i < hi; i++ {
		j := &r.Jobs[i]
		hasR := j.Reduces > 0
		b := fieldsFrom{b, 3}
		b.Field(0).(*array.Int32Builder).Append(j.Index)
		b.Field(1).(*array.Int64Builder).Append(j.ID)
		b.Field(2).(*array.StringBuilder).Append(j.Class)
		b.Field(3).(*array.StringBuilder).Append(j.Pool)
		b.Field(4).(*array.Int32Builder).Append(j.Maps)
		b.Field(5).(*array.Int32Builder).Append(j.Reduces)
		b.Field(6).(*array.Float64Builder).Append(j.Submit.Sec())
		b.Field(7).(*array.Float64Builder).Append(j.FirstLaunch.Sec())
		b.Field(8).(*array.Float64Builder).Append(j.MapsDone.Sec())
		nullableSec(b.Field(9).(*array.Float64Builder), j.ReducesEligible, hasR)
		b.Field(10).(*array.Float64Builder).Append(j.Finish.Sec())
		b.Field(11).(*array.Float64Builder).Append(j.Sojourn().Sec())
		b.Field(12).(*array.Float64Builder).Append(j.MapSojourn().Sec())
		nullableSec(b.Field(13).(*array.Float64Builder), j.ReduceSojourn(), hasR)
		b.Field(14).(*array.Int32Builder).Append(j.Kills)
		b.Field(15).(*array.Int32Builder).Append(j.Suspensions)
		b.Field(16).(*array.Int32Builder).Append(j.Lost)
		b.Field(17).(*array.Int32Builder).Append(j.NodeLocal)
		b.Field(18).(*array.Int32Builder).Append(j.RackLocal)
		b.Field(19).(*array.Int32Builder).Append(j.OffRack)
	}
}

// appendCodes appends codes to a dictionary column. Every record batch
// gets the same dictionary (all names, in order): the Arrow IPC file format
// allows one dictionary per field. Name i has index i, so the codes are
// the indices, appended in one go (appending each row by its name would
// convert and look up every row).
func appendCodes[T ~uint8 | ~int8](b array.Builder, codes []T, names []string) {
	db := b.(*array.BinaryDictionaryBuilder)
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues(names, nil)
	dict := sb.NewStringArray()
	if err := db.InsertStringDictValues(dict); err != nil {
		panic("results: " + err.Error()) // cannot happen: the names are distinct strings
	}
	dict.Release()
	sb.Release()
	idx := make([]int, len(codes))
	for i, c := range codes {
		idx[i] = int(c)
	}
	db.AppendIndices(idx, nil)
}

var (
	kindNames     = []string{"map", "reduce"}
	localityNames = []string{"node-local", "rack-local", "off-rack", "no-input"} // replay.Locality order
	outcomeNames  = []string{"finished", "suspended", "killed", "lost"}
)

// WriteTasks writes one row per task segment.
func WriteTasks(path string, r *replay.Result, md map[string]string) error {
	s := &r.Segments
	return writeTable(path, schemaOf(TaskColumns, md, "tasks"), s.Len(), func(b *array.RecordBuilder, lo, hi int) {
		fillTasks(b, s, lo, hi)
	})
}

// fillTasks appends segments [lo, hi) to a tasks batch.
func fillTasks(b *array.RecordBuilder, s *replay.Segments, lo, hi int) {
	b.Field(0).(*array.Int32Builder).AppendValues(s.Job[lo:hi], nil)
	appendCodes(b.Field(1), s.Kind[lo:hi], kindNames)
	b.Field(2).(*array.Int32Builder).AppendValues(s.Task[lo:hi], nil)
	b.Field(3).(*array.Int32Builder).AppendValues(s.Attempt[lo:hi], nil)
	b.Field(4).(*array.Int32Builder).AppendValues(s.Node[lo:hi], nil)
	appendSecs(b.Field(5).(*array.Float64Builder), s.Start[lo:hi])
	appendSecs(b.Field(6).(*array.Float64Builder), s.End[lo:hi])
	appendSecs(b.Field(7).(*array.Float64Builder), s.Swap[lo:hi])
	appendCodes(b.Field(8), s.Locality[lo:hi], localityNames)
	appendCodes(b.Field(9), s.Outcome[lo:hi], outcomeNames)
}

// WriteOccupancy writes the per-job slot occupancy series.
func WriteOccupancy(path string, r *replay.Result, md map[string]string) error {
	o := &r.Occupancy
	return writeTable(path, schemaOf(OccupancyColumns, md, "occupancy"), o.Len(), func(b *array.RecordBuilder, lo, hi int) {
		fillOccupancy(b, o, lo, hi)
	})
}

// fillOccupancy appends occupancy rows [lo, hi) to a batch.
func fillOccupancy(b *array.RecordBuilder, o *replay.Occupancy, lo, hi int) {
	appendSecs(b.Field(0).(*array.Float64Builder), o.Time[lo:hi])
	b.Field(1).(*array.Int32Builder).AppendValues(o.Job[lo:hi], nil)
	b.Field(2).(*array.Int32Builder).AppendValues(o.RunningMaps[lo:hi], nil)
	b.Field(3).(*array.Int32Builder).AppendValues(o.RunningReduces[lo:hi], nil)
	b.Field(4).(*array.Int32Builder).AppendValues(o.Suspended[lo:hi], nil)
}

// fieldsFrom is a record builder's fields from the off-th on.
type fieldsFrom struct {
	b   *array.RecordBuilder
	off int
}

func (f fieldsFrom) Field(i int) array.Builder { return f.b.Field(f.off + i) }

func repeat[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func appendSecs(b *array.Float64Builder, ts []replay.Time) {
	b.Reserve(len(ts))
	for _, t := range ts {
		b.UnsafeAppend(t.Sec())
	}
}
