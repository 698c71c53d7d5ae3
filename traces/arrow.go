package traces

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"sojourn/internal/atomicfile"
)

// Column names of the trace schema.
const (
	ColJobID           = "job_id"
	ColName            = "name"
	ColSubmit          = "submit_s"
	ColPool            = "pool"
	ColPriority        = "priority"
	ColClass           = "class"
	ColMaps            = "maps"
	ColReduces         = "reduces"
	ColMapInputBytes   = "map_input_bytes"
	ColShuffleBytes    = "shuffle_bytes"
	ColOutputBytes     = "output_bytes"
	ColMapDurations    = "map_durations_s"
	ColReduceDurations = "reduce_durations_s"
	ColReduceShuffle   = "reduce_shuffle_bytes"
	ColMapMemory       = "map_memory_bytes"
	ColReduceMemory    = "reduce_memory_bytes"
	ColEstimate        = "user_estimate_s" // schema version 2
	ColSourceLine      = "source_line"     // schema version 2
	ColMapCores        = "map_cores"       // schema version 2
	ColReduceCores     = "reduce_cores"    // schema version 2
	ColRigid           = "rigid"           // schema version 3
)

// Column documents one column of a schema.
type Column struct {
	Name string
	Type arrow.DataType
	Unit string
	Doc  string
	// Nullable columns may hold nulls; Since is the schema version that
	// added the column (0 for version 1's columns).
	Nullable bool
	Since    int
}

// Columns lists the trace schema in file order, with units.
var Columns = []Column{
	{ColJobID, arrow.PrimitiveTypes.Int64, "-", "unique job id", false, 0},
	{ColName, arrow.BinaryTypes.String, "-", "job name (free text)", false, 0},
	{ColSubmit, arrow.PrimitiveTypes.Float64, "s", "submit time from the start of the workload; non-decreasing", false, 0},
	{ColPool, arrow.BinaryTypes.String, "-", "user or pool the job is submitted to", false, 0},
	{ColPriority, arrow.PrimitiveTypes.Int8, "-", "Hadoop priority: -2 VERY_LOW, -1 LOW, 0 NORMAL, 1 HIGH, 2 VERY_HIGH", false, 0},
	{ColClass, arrow.BinaryTypes.String, "-", "class label (small, medium, big, …)", false, 0},
	{ColMaps, arrow.PrimitiveTypes.Int32, "tasks", "number of map tasks; equals len(map_durations_s)", false, 0},
	{ColReduces, arrow.PrimitiveTypes.Int32, "tasks", "number of reduce tasks; equals len(reduce_durations_s)", false, 0},
	{ColMapInputBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes read by the maps", false, 0},
	{ColShuffleBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes moved from maps to reduces", false, 0},
	{ColOutputBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes written by the job", false, 0},
	{ColMapDurations, arrow.ListOf(arrow.PrimitiveTypes.Float64), "s", "per map task: run time at reference speed on node-local data", false, 0},
	{ColReduceDurations, arrow.ListOf(arrow.PrimitiveTypes.Float64), "s", "per reduce task: run time after the shuffle, at reference speed", false, 0},
	{ColReduceShuffle, arrow.ListOf(arrow.PrimitiveTypes.Int64), "bytes", "per reduce task: bytes it fetches in the shuffle", false, 0},
	{ColMapMemory, arrow.PrimitiveTypes.Int64, "bytes", "memory footprint of one map task", false, 0},
	{ColReduceMemory, arrow.PrimitiveTypes.Int64, "bytes", "memory footprint of one reduce task", false, 0},
	{ColEstimate, arrow.PrimitiveTypes.Float64, "slot-s", "the user's estimate of the job's work (sum of its task durations at reference speed); null when none was given", true, 2},
	{ColSourceLine, arrow.PrimitiveTypes.Int64, "-", "line of the imported file (import.source) the job came from, from 1; null for a generated job", true, 2},
	{ColMapCores, arrow.PrimitiveTypes.Float64, "cores", "CPU cores one map task asks for (its container's size); null when unknown; not used by the slot model", true, 2},
	{ColReduceCores, arrow.PrimitiveTypes.Float64, "cores", "CPU cores one reduce task asks for; null when unknown; not used by the slot model", true, 2},
	{ColRigid, arrow.FixedWidthTypes.Boolean, "-", "true for a rigid (gang) job: its maps start together, as a parallel job of an HPC log asks for all its processors at once; such a job has no reduces", false, 3},
}

// Schema returns the Arrow schema of a trace with the given parameters as
// metadata (in sorted key order, after the kind and schema version).
func Schema(t *Trace) *arrow.Schema {
	fields := make([]arrow.Field, len(Columns))
	for i, c := range Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: c.Nullable}
	}
	keys := []string{KeyKind, KeySchemaVersion}
	vals := []string{KindTrace, SchemaVersion}
	for _, k := range t.SortedParamKeys() {
		if k == KeyKind || k == KeySchemaVersion {
			continue
		}
		keys = append(keys, k)
		vals = append(vals, t.Params[k])
	}
	md := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(fields, &md)
}

// A record batch holds batchRows jobs, or fewer when they reach
// batchTasks tasks: a batch is what a reader or writer holds in memory.
const (
	batchRows  = 8192
	batchTasks = 1 << 20
)

// Encode writes t as an Arrow IPC file to w. It validates t first.
func Encode(w io.WriteSeeker, t *Trace) error {
	if err := t.Validate(); err != nil {
		return err
	}
	tw, err := NewWriter(w, t.Params)
	if err != nil {
		return err
	}
	for i := range t.Jobs {
		if err := tw.Write(&t.Jobs[i]); err != nil {
			return err
		}
	}
	return tw.Close()
}

// Writer encodes a trace job by job, so that a trace of any size is
// written with the memory of one record batch. The file is the one Encode
// writes for the same jobs, byte for byte.
type Writer struct {
	fw    *ipc.FileWriter
	b     *array.RecordBuilder
	v     validator
	rows  int // jobs in the current batch
	tasks int // and their tasks
	err   error
}

// NewWriter starts a trace with the given parameters on w.
func NewWriter(w io.WriteSeeker, params map[string]string) (*Writer, error) {
	if err := CheckParams(params); err != nil {
		return nil, err
	}
	mem := memory.NewGoAllocator()
	schema := Schema(&Trace{Params: params})
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	return &Writer{fw: fw, b: array.NewRecordBuilder(mem, schema)}, nil
}

// Write validates j against the schema and the rows before it, and
// appends it. The Writer keeps no reference to j.
func (w *Writer) Write(j *Job) error {
	if w.err != nil {
		return w.err
	}
	if err := w.v.check(w.v.rows, j); err != nil {
		return err
	}
	appendJob(w.b, j)
	w.rows++
	w.tasks += j.Maps() + j.Reduces()
	if w.rows == batchRows || w.tasks >= batchTasks {
		w.err = w.flush()
	}
	return w.err
}

func (w *Writer) flush() error {
	rec := w.b.NewRecord()
	defer rec.Release()
	w.rows, w.tasks = 0, 0
	return w.fw.Write(rec)
}

// Close writes the last batch and the file's footer. A trace without jobs
// gets one empty batch.
func (w *Writer) Close() error {
	defer w.b.Release()
	if w.err != nil {
		return w.err
	}
	if w.rows > 0 || w.v.rows == 0 {
		if err := w.flush(); err != nil {
			return err
		}
	}
	return w.fw.Close()
}

// Create writes a trace at path atomically, job by job: fill gets a
// Writer and must not close it. An interrupted write leaves no file that
// looks whole.
func Create(path string, params map[string]string, fill func(w *Writer) error) error {
	err := atomicfile.Write(path, func(f *os.File) error {
		w, err := NewWriter(f, params)
		if err != nil {
			return err
		}
		if err := fill(w); err != nil {
			w.b.Release()
			return err
		}
		return w.Close()
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func appendJob(b *array.RecordBuilder, j *Job) {
	b.Field(0).(*array.Int64Builder).Append(j.ID)
	b.Field(1).(*array.StringBuilder).Append(j.Name)
	b.Field(2).(*array.Float64Builder).Append(j.Submit)
	b.Field(3).(*array.StringBuilder).Append(j.Pool)
	b.Field(4).(*array.Int8Builder).Append(int8(j.Priority))
	b.Field(5).(*array.StringBuilder).Append(j.Class)
	b.Field(6).(*array.Int32Builder).Append(int32(j.Maps()))
	b.Field(7).(*array.Int32Builder).Append(int32(j.Reduces()))
	b.Field(8).(*array.Int64Builder).Append(j.MapInputBytes)
	b.Field(9).(*array.Int64Builder).Append(j.ShuffleBytes)
	b.Field(10).(*array.Int64Builder).Append(j.OutputBytes)
	appendFloats(b.Field(11).(*array.ListBuilder), j.MapDurations)
	appendFloats(b.Field(12).(*array.ListBuilder), j.ReduceDurations)
	lb := b.Field(13).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int64Builder).AppendValues(j.ReduceShuffleBytes, nil)
	b.Field(14).(*array.Int64Builder).Append(j.MapMemoryBytes)
	b.Field(15).(*array.Int64Builder).Append(j.ReduceMemoryBytes)
	if eb := b.Field(16).(*array.Float64Builder); j.HasEstimate {
		eb.Append(j.Estimate)
	} else {
		eb.AppendNull()
	}
	if lb := b.Field(17).(*array.Int64Builder); j.SourceLine != 0 {
		lb.Append(j.SourceLine)
	} else {
		lb.AppendNull()
	}
	appendNonZero(b.Field(18).(*array.Float64Builder), j.MapCores)
	appendNonZero(b.Field(19).(*array.Float64Builder), j.ReduceCores)
	b.Field(20).(*array.BooleanBuilder).Append(j.Rigid)
}

// appendNonZero appends v, or null for 0 (unknown).
func appendNonZero(fb *array.Float64Builder, v float64) {
	if v != 0 {
		fb.Append(v)
	} else {
		fb.AppendNull()
	}
}

func appendFloats(lb *array.ListBuilder, v []float64) {
	lb.Append(true)
	lb.ValueBuilder().(*array.Float64Builder).AppendValues(v, nil)
}

// Write stores t at path atomically: an interrupted write leaves no file
// that looks whole.
func Write(path string, t *Trace) error {
	if err := atomicfile.Write(path, func(f *os.File) error { return Encode(f, t) }); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
