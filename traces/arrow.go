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
)

// Column documents one column of a schema.
type Column struct {
	Name string
	Type arrow.DataType
	Unit string
	Doc  string
}

// Columns lists the trace schema in file order, with units.
var Columns = []Column{
	{ColJobID, arrow.PrimitiveTypes.Int64, "-", "unique job id"},
	{ColName, arrow.BinaryTypes.String, "-", "job name (free text)"},
	{ColSubmit, arrow.PrimitiveTypes.Float64, "s", "submit time from the start of the workload; non-decreasing"},
	{ColPool, arrow.BinaryTypes.String, "-", "user or pool the job is submitted to"},
	{ColPriority, arrow.PrimitiveTypes.Int8, "-", "Hadoop priority: -2 VERY_LOW, -1 LOW, 0 NORMAL, 1 HIGH, 2 VERY_HIGH"},
	{ColClass, arrow.BinaryTypes.String, "-", "class label (small, medium, big, …)"},
	{ColMaps, arrow.PrimitiveTypes.Int32, "tasks", "number of map tasks; equals len(map_durations_s)"},
	{ColReduces, arrow.PrimitiveTypes.Int32, "tasks", "number of reduce tasks; equals len(reduce_durations_s)"},
	{ColMapInputBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes read by the maps"},
	{ColShuffleBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes moved from maps to reduces"},
	{ColOutputBytes, arrow.PrimitiveTypes.Int64, "bytes", "bytes written by the job"},
	{ColMapDurations, arrow.ListOf(arrow.PrimitiveTypes.Float64), "s", "per map task: run time at reference speed on node-local data"},
	{ColReduceDurations, arrow.ListOf(arrow.PrimitiveTypes.Float64), "s", "per reduce task: run time after the shuffle, at reference speed"},
	{ColReduceShuffle, arrow.ListOf(arrow.PrimitiveTypes.Int64), "bytes", "per reduce task: bytes it fetches in the shuffle"},
	{ColMapMemory, arrow.PrimitiveTypes.Int64, "bytes", "memory footprint of one map task"},
	{ColReduceMemory, arrow.PrimitiveTypes.Int64, "bytes", "memory footprint of one reduce task"},
}

// Schema returns the Arrow schema of a trace with the given parameters as
// metadata (in sorted key order, after the kind and schema version).
func Schema(t *Trace) *arrow.Schema {
	fields := make([]arrow.Field, len(Columns))
	for i, c := range Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: false}
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

// batchRows is the number of jobs per Arrow record batch.
const batchRows = 8192

// Encode writes t as an Arrow IPC file to w. It validates t first.
func Encode(w io.WriteSeeker, t *Trace) error {
	if err := t.Validate(); err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	schema := Schema(t)
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return err
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for start := 0; start < len(t.Jobs); start += batchRows {
		end := min(start+batchRows, len(t.Jobs))
		for i := start; i < end; i++ {
			appendJob(b, &t.Jobs[i])
		}
		rec := b.NewRecord()
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	if len(t.Jobs) == 0 {
		rec := b.NewRecord()
		err := fw.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return fw.Close()
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

// Read loads and validates the trace at path. Every error names the file;
// errors about values also name the row and column.
func Read(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Decode reads and validates a trace from an Arrow IPC file. It never
// panics: a corrupt file gives an error wrapping ErrNotTrace.
func Decode(r ipc.ReadAtSeeker) (t *Trace, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("%w: corrupt Arrow data (%v)", ErrNotTrace, p)
		}
	}()
	mem := memory.NewGoAllocator()
	fr, err := ipc.NewFileReader(r, ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%w: not an Arrow IPC file (%v)", ErrNotTrace, err)
	}
	defer fr.Close()
	schema := fr.Schema()
	md := schema.Metadata()
	if kind, ok := md.GetValue(KeyKind); ok && kind != KindTrace {
		return nil, fmt.Errorf("%w: metadata %s is %q, want %q", ErrNotTrace, KeyKind, kind, KindTrace)
	}
	ver, ok := md.GetValue(KeySchemaVersion)
	if !ok {
		return nil, fmt.Errorf("%w: metadata has no %s", ErrNotTrace, KeySchemaVersion)
	}
	if ver != SchemaVersion {
		return nil, fmt.Errorf("%w: %s is %q, this build reads %q", ErrSchemaVersion, KeySchemaVersion, ver, SchemaVersion)
	}
	idx := make([]int, len(Columns))
	for i, c := range Columns {
		found := schema.FieldIndices(c.Name)
		if len(found) == 0 {
			return nil, fmt.Errorf("%w: column %s is missing", ErrNotTrace, c.Name)
		}
		ft := schema.Field(found[0]).Type
		if !arrow.TypeEqual(ft, c.Type) {
			return nil, fmt.Errorf("%w: column %s has type %s, want %s", ErrNotTrace, c.Name, ft, c.Type)
		}
		idx[i] = found[0]
	}
	t = &Trace{Params: map[string]string{}}
	for i, k := range md.Keys() {
		if k != KeyKind && k != KeySchemaVersion {
			t.Params[k] = md.Values()[i]
		}
	}
	row := 0
	for b := 0; b < fr.NumRecords(); b++ {
		rec, err := fr.Record(b)
		if err != nil {
			return nil, fmt.Errorf("%w: record batch %d: %v", ErrNotTrace, b, err)
		}
		n, err := decodeBatch(rec, idx, row, t)
		if err != nil {
			return nil, err
		}
		row += n
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

func decodeBatch(rec arrow.Record, idx []int, row0 int, t *Trace) (int, error) {
	n := int(rec.NumRows())
	col := func(i int) arrow.Array { return rec.Column(idx[i]) }
	for i, c := range Columns {
		a := col(i)
		if a.NullN() > 0 {
			for r := 0; r < n; r++ {
				if a.IsNull(r) {
					return 0, rowErr(row0+r, c.Name, "null; the column allows no nulls")
				}
			}
		}
	}
	ids := col(0).(*array.Int64)
	names := col(1).(*array.String)
	submit := col(2).(*array.Float64)
	pools := col(3).(*array.String)
	prio := col(4).(*array.Int8)
	class := col(5).(*array.String)
	maps := col(6).(*array.Int32)
	reds := col(7).(*array.Int32)
	in := col(8).(*array.Int64)
	sh := col(9).(*array.Int64)
	out := col(10).(*array.Int64)
	md := col(11).(*array.List)
	rd := col(12).(*array.List)
	rs := col(13).(*array.List)
	mm := col(14).(*array.Int64)
	rm := col(15).(*array.Int64)
	mdv := md.ListValues().(*array.Float64)
	rdv := rd.ListValues().(*array.Float64)
	rsv := rs.ListValues().(*array.Int64)
	if mdv.NullN() > 0 || rdv.NullN() > 0 || rsv.NullN() > 0 {
		return 0, fmt.Errorf("%w: a list column holds null elements", ErrInvalid)
	}
	for r := 0; r < n; r++ {
		j := Job{
			ID: ids.Value(r), Name: names.Value(r), Submit: submit.Value(r),
			Pool: pools.Value(r), Priority: Priority(prio.Value(r)), Class: class.Value(r),
			MapInputBytes: in.Value(r), ShuffleBytes: sh.Value(r), OutputBytes: out.Value(r),
			MapMemoryBytes: mm.Value(r), ReduceMemoryBytes: rm.Value(r),
		}
		s, e := md.ValueOffsets(r)
		j.MapDurations = clone(mdv.Float64Values()[s:e])
		s, e = rd.ValueOffsets(r)
		j.ReduceDurations = clone(rdv.Float64Values()[s:e])
		s, e = rs.ValueOffsets(r)
		j.ReduceShuffleBytes = clone(rsv.Int64Values()[s:e])
		if int(maps.Value(r)) != len(j.MapDurations) {
			return 0, rowErr(row0+r, ColMaps, "%d, but %s has %d entries", maps.Value(r), ColMapDurations, len(j.MapDurations))
		}
		if int(reds.Value(r)) != len(j.ReduceDurations) {
			return 0, rowErr(row0+r, ColReduces, "%d, but %s has %d entries", reds.Value(r), ColReduceDurations, len(j.ReduceDurations))
		}
		t.Jobs = append(t.Jobs, j)
	}
	return n, nil
}

// clone copies v into a new, never-nil slice so decoded traces do not keep
// Arrow buffers alive and compare equal to hand-built ones.
func clone[T any](v []T) []T {
	out := make([]T, len(v))
	copy(out, v)
	return out
}
