package results

import (
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"sojourn/internal/arrowsafe"
)

// Jobs is jobs.arrow read back in columns. Null times are NaN.
type Jobs struct {
	Meta          map[string]string
	Index         []int32
	Class         []string
	Maps, Reduces []int32
	Submit        []float64
	Finish        []float64
	Sojourn       []float64
	MapSojourn    []float64
	ReduceSojourn []float64
	NodeLocal     []int32
	RackLocal     []int32
	OffRack       []int32
}

// Len is the number of jobs.
func (j *Jobs) Len() int { return len(j.Index) }

// ReadJobs reads a jobs.arrow file. Errors name the file and, for a
// missing or mistyped column, the column.
func ReadJobs(path string) (out *Jobs, err error) {
	defer recoverCorrupt(path, &out, &err)
	r, close, err := openTable(path, "jobs")
	if err != nil {
		return nil, err
	}
	defer close()
	md := r.Schema().Metadata()
	out = &Jobs{Meta: map[string]string{}}
	for i, k := range md.Keys() {
		out.Meta[k] = md.Values()[i]
	}
	for b := 0; b < r.NumRecords(); b++ {
		rec, err := r.Record(b)
		if err != nil {
			return nil, fmt.Errorf("%s: record batch %d: %w", path, b, err)
		}
		ints := map[string]*[]int32{"job_index": &out.Index, "maps": &out.Maps, "reduces": &out.Reduces,
			"node_local_maps": &out.NodeLocal, "rack_local_maps": &out.RackLocal, "off_rack_maps": &out.OffRack}
		for _, name := range []string{"job_index", "maps", "reduces", "node_local_maps", "rack_local_maps", "off_rack_maps"} {
			a, err := column(path, rec, name, i32)
			if err != nil {
				return nil, err
			}
			*ints[name] = append(*ints[name], a.(*array.Int32).Int32Values()...)
		}
		floats := map[string]*[]float64{"submit_s": &out.Submit, "finish_s": &out.Finish, "sojourn_s": &out.Sojourn,
			"map_sojourn_s": &out.MapSojourn, "reduce_sojourn_s": &out.ReduceSojourn}
		for _, name := range []string{"submit_s", "finish_s", "sojourn_s", "map_sojourn_s", "reduce_sojourn_s"} {
			a, err := column(path, rec, name, f64)
			if err != nil {
				return nil, err
			}
			fa := a.(*array.Float64)
			for i := 0; i < fa.Len(); i++ {
				v := fa.Value(i)
				if fa.IsNull(i) {
					v = math.NaN()
				}
				*floats[name] = append(*floats[name], v)
			}
		}
		a, err := column(path, rec, "class", str)
		if err != nil {
			return nil, err
		}
		sa := a.(*array.String)
		for i := 0; i < sa.Len(); i++ {
			out.Class = append(out.Class, sa.Value(i))
		}
	}
	return out, nil
}

// Tasks is tasks.arrow read back in columns, as a run page needs it: the
// segments' job, kind, node, span and outcome.
type Tasks struct {
	Job        []int32
	Reduce     []bool // kind: false for a map, true for a reduce
	Node       []int32
	Start, End []float64
	Outcome    []string
}

// Len is the number of task segments.
func (t *Tasks) Len() int { return len(t.Job) }

// ReadTasks reads a tasks.arrow file. Errors name the file and, for a
// missing or mistyped column, the column.
func ReadTasks(path string) (out *Tasks, err error) {
	defer recoverCorrupt(path, &out, &err)
	r, close, err := openTable(path, "tasks")
	if err != nil {
		return nil, err
	}
	defer close()
	out = &Tasks{}
	strs := func(a arrow.Array) func(int) string {
		d := a.(*array.Dictionary)
		dict := d.Dictionary().(*array.String)
		return func(i int) string { return dict.Value(d.GetValueIndex(i)) }
	}
	for b := 0; b < r.NumRecords(); b++ {
		rec, err := r.Record(b)
		if err != nil {
			return nil, fmt.Errorf("%s: record batch %d: %w", path, b, err)
		}
		var cols [6]arrow.Array
		for i, c := range []struct {
			name string
			typ  arrow.DataType
		}{{"job_index", i32}, {"kind", category}, {"node", i32}, {"start_s", f64}, {"end_s", f64}, {"outcome", category}} {
			if cols[i], err = column(path, rec, c.name, c.typ); err != nil {
				return nil, err
			}
		}
		out.Job = append(out.Job, cols[0].(*array.Int32).Int32Values()...)
		out.Node = append(out.Node, cols[2].(*array.Int32).Int32Values()...)
		out.Start = append(out.Start, cols[3].(*array.Float64).Float64Values()...)
		out.End = append(out.End, cols[4].(*array.Float64).Float64Values()...)
		kind, outcome := strs(cols[1]), strs(cols[5])
		for i := 0; i < int(rec.NumRows()); i++ {
			out.Reduce = append(out.Reduce, kind(i) == "reduce")
			out.Outcome = append(out.Outcome, outcome(i))
		}
	}
	return out, nil
}

// openArrow opens the Arrow IPC file at path; close releases the reader
// and the file.
func openArrow(path string) (r *ipc.FileReader, close func(), err error) {
	f, err := arrowsafe.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err) // "corrupt Arrow IPC file: …"
	}
	return f.FileReader, func() { f.Close() }, nil
}

// openTable opens the Arrow results file at path and checks that it holds
// a table of the given kind ("jobs", "tasks") in the schema version this
// build reads.
func openTable(path, kind string) (r *ipc.FileReader, close func(), err error) {
	if r, close, err = openArrow(path); err != nil {
		return nil, nil, err
	}
	md := r.Schema().Metadata()
	if k, _ := md.GetValue(KeyKind); k != kind {
		close()
		return nil, nil, fmt.Errorf("%s: metadata %s is %q, want %q", path, KeyKind, k, kind)
	}
	if v, _ := md.GetValue(KeySchemaVersion); v != SchemaVersion {
		close()
		return nil, nil, fmt.Errorf("%s: result schema version %q, this build reads %q", path, v, SchemaVersion)
	}
	return r, close, nil
}

// column returns rec's column called name, which must be of type typ.
func column(path string, rec arrow.Record, name string, typ arrow.DataType) (arrow.Array, error) {
	idx := rec.Schema().FieldIndices(name)
	if len(idx) == 0 {
		return nil, fmt.Errorf("%s: column %s is missing", path, name)
	}
	a := rec.Column(idx[0])
	if !arrow.TypeEqual(a.DataType(), typ) {
		return nil, fmt.Errorf("%s: column %s has type %s, want %s", path, name, a.DataType(), typ)
	}
	if int64(a.Len()) != rec.NumRows() {
		return nil, fmt.Errorf("%s: column %s has %d rows in a record batch of %d", path, name, a.Len(), rec.NumRows())
	}
	return a, nil
}

// recoverCorrupt, deferred by a reader, turns a panic of the Arrow
// decoder on a damaged file into an error naming the file.
func recoverCorrupt[T any](path string, out **T, err *error) {
	if p := recover(); p != nil {
		*out, *err = nil, fmt.Errorf("%s: corrupt Arrow data (%v)", path, p)
	}
}

// recoverCorruptErr is recoverCorrupt for a function that returns an
// error only.
func recoverCorruptErr(path string, err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: corrupt Arrow data (%v)", path, p)
	}
}
