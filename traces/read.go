package traces

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"

	"sojourn/internal/arrowsafe"
)

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
	fr, idx, params, layout, err := openIPC(r)
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	if err := checkJobCount(params, int(layout.TotalRows())); err != nil {
		return nil, err
	}
	t = &Trace{Params: params}
	row := 0
	for b := 0; b < fr.NumRecords(); b++ {
		rec, err := fr.Record(b)
		if err != nil {
			return nil, fmt.Errorf("%w: record batch %d: %v", ErrNotTrace, b, err)
		}
		var bt batch
		if err := bt.load(rec, idx, row); err != nil {
			return nil, err
		}
		for r := range bt.n {
			var j Job
			if err := bt.job(r, &j); err != nil {
				return nil, err
			}
			t.Jobs = append(t.Jobs, j)
		}
		row += bt.n
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// openIPC opens an Arrow IPC file and checks that it is a trace of this
// schema version; it returns the columns' positions, the parameters and
// the layout (rows per record batch) arrowsafe.Check found. The file's
// structure is checked before the Arrow library reads it, which trusts
// its sizes and offsets (see internal/arrowsafe).
func openIPC(r ipc.ReadAtSeeker) (*ipc.FileReader, []int, map[string]string, *arrowsafe.Layout, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %v", ErrNotTrace, err)
	}
	layout, err := arrowsafe.Check(r, size)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %v", ErrNotTrace, err)
	}
	fr, err := ipc.NewFileReader(r, ipc.WithAllocator(arrowsafe.Allocator(size)))
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: not an Arrow IPC file (%v)", ErrNotTrace, err)
	}
	fail := func(err error) (*ipc.FileReader, []int, map[string]string, *arrowsafe.Layout, error) {
		fr.Close()
		return nil, nil, nil, nil, err
	}
	if fr.NumRecords() != len(layout.Rows) {
		return fail(fmt.Errorf("%w: %d record batches, %d checked", ErrNotTrace, fr.NumRecords(), len(layout.Rows)))
	}
	schema := fr.Schema()
	md := schema.Metadata()
	if kind, ok := md.GetValue(KeyKind); ok && kind != KindTrace {
		return fail(fmt.Errorf("%w: metadata %s is %q, want %q", ErrNotTrace, KeyKind, kind, KindTrace))
	}
	ver, ok := md.GetValue(KeySchemaVersion)
	if !ok {
		return fail(fmt.Errorf("%w: metadata has no %s", ErrNotTrace, KeySchemaVersion))
	}
	v, verr := strconv.Atoi(ver)
	if verr != nil || !slices.Contains(readableVersions, ver) {
		return fail(fmt.Errorf("%w: %s is %q, this build reads %s", ErrSchemaVersion, KeySchemaVersion, ver, strings.Join(readableVersions, ", ")))
	}
	idx := make([]int, len(Columns))
	for i, c := range Columns {
		found := schema.FieldIndices(c.Name)
		if c.Since > v {
			// A column the file's version does not have: all null.
			if len(found) > 0 {
				return fail(fmt.Errorf("%w: column %s in a version %s file; it came with version %d", ErrNotTrace, c.Name, ver, c.Since))
			}
			idx[i] = -1
			continue
		}
		if len(found) == 0 {
			return fail(fmt.Errorf("%w: column %s is missing", ErrNotTrace, c.Name))
		}
		ft := schema.Field(found[0]).Type
		if !arrow.TypeEqual(ft, c.Type) {
			return fail(fmt.Errorf("%w: column %s has type %s, want %s", ErrNotTrace, c.Name, ft, c.Type))
		}
		idx[i] = found[0]
	}
	params := map[string]string{}
	for i, k := range md.Keys() {
		if k != KeyKind && k != KeySchemaVersion {
			params[k] = md.Values()[i]
		}
	}
	if err := CheckParams(params); err != nil {
		return fail(err)
	}
	return fr, idx, params, layout, nil
}

// batch is one record batch's columns, checked for nulls.
type batch struct {
	n, row0             int
	ids                 *array.Int64
	names, pools, class *array.String
	submit              *array.Float64
	prio                *array.Int8
	maps, reds          *array.Int32
	in, sh, out, mm, rm *array.Int64
	md, rd, rs          *array.List
	mdv, rdv            *array.Float64
	rsv                 *array.Int64
	est                 *array.Float64 // nil for a version 1 file
	line                *array.Int64   // nil for a version 1 file
	mcores, rcores      *array.Float64 // nil for a version 1 file
	rigid               *array.Boolean // nil before version 3
}

func (b *batch) load(rec arrow.Record, idx []int, row0 int) error {
	n := int(rec.NumRows())
	for i, c := range Columns {
		if idx[i] < 0 {
			continue // a column the file's version does not have
		}
		if l := rec.Column(idx[i]).Len(); l != n {
			return fmt.Errorf("%w: column %s has %d rows in a record batch of %d", ErrNotTrace, c.Name, l, n)
		}
	}
	col := func(i int) arrow.Array { return rec.Column(idx[i]) }
	for i, c := range Columns {
		if c.Nullable || idx[i] < 0 {
			continue
		}
		a := col(i)
		if a.NullN() > 0 {
			for r := 0; r < n; r++ {
				if a.IsNull(r) {
					return rowErr(row0+r, c.Name, "null; the column allows no nulls")
				}
			}
		}
	}
	*b = batch{n: n, row0: row0,
		ids: col(0).(*array.Int64), names: col(1).(*array.String), submit: col(2).(*array.Float64),
		pools: col(3).(*array.String), prio: col(4).(*array.Int8), class: col(5).(*array.String),
		maps: col(6).(*array.Int32), reds: col(7).(*array.Int32),
		in: col(8).(*array.Int64), sh: col(9).(*array.Int64), out: col(10).(*array.Int64),
		md: col(11).(*array.List), rd: col(12).(*array.List), rs: col(13).(*array.List),
		mm: col(14).(*array.Int64), rm: col(15).(*array.Int64),
	}
	if idx[16] >= 0 {
		b.est = col(16).(*array.Float64)
	}
	if idx[17] >= 0 {
		b.line = col(17).(*array.Int64)
	}
	if idx[18] >= 0 {
		b.mcores = col(18).(*array.Float64)
	}
	if idx[19] >= 0 {
		b.rcores = col(19).(*array.Float64)
	}
	if idx[20] >= 0 {
		b.rigid = col(20).(*array.Boolean)
	}
	b.mdv = b.md.ListValues().(*array.Float64)
	b.rdv = b.rd.ListValues().(*array.Float64)
	b.rsv = b.rs.ListValues().(*array.Int64)
	if b.mdv.NullN() > 0 || b.rdv.NullN() > 0 || b.rsv.NullN() > 0 {
		return fmt.Errorf("%w: a list column holds null elements", ErrInvalid)
	}
	return nil
}

// job decodes row r into j, copying the task lists into new slices so
// that no job keeps Arrow buffers alive.
func (b *batch) job(r int, j *Job) error {
	*j = Job{
		ID: b.ids.Value(r), Name: b.names.Value(r), Submit: b.submit.Value(r),
		Pool: b.pools.Value(r), Priority: Priority(b.prio.Value(r)), Class: b.class.Value(r),
		MapInputBytes: b.in.Value(r), ShuffleBytes: b.sh.Value(r), OutputBytes: b.out.Value(r),
		MapMemoryBytes: b.mm.Value(r), ReduceMemoryBytes: b.rm.Value(r),
	}
	if b.est != nil && b.est.IsValid(r) {
		j.Estimate, j.HasEstimate = b.est.Value(r), true
	}
	if b.line != nil && b.line.IsValid(r) {
		j.SourceLine = b.line.Value(r)
		if j.SourceLine == 0 {
			return rowErr(b.row0+r, ColSourceLine, "0; a job without a line has null")
		}
	}
	for _, c := range []struct {
		a   *array.Float64
		dst *float64
		col string
	}{{b.mcores, &j.MapCores, ColMapCores}, {b.rcores, &j.ReduceCores, ColReduceCores}} {
		if c.a != nil && c.a.IsValid(r) {
			if *c.dst = c.a.Value(r); *c.dst == 0 {
				return rowErr(b.row0+r, c.col, "0; unknown cores are null")
			}
		}
	}
	if b.rigid != nil {
		j.Rigid = b.rigid.Value(r)
	}
	s, e := b.md.ValueOffsets(r)
	j.MapDurations = clone(b.mdv.Float64Values()[s:e])
	s, e = b.rd.ValueOffsets(r)
	j.ReduceDurations = clone(b.rdv.Float64Values()[s:e])
	s, e = b.rs.ValueOffsets(r)
	j.ReduceShuffleBytes = clone(b.rsv.Int64Values()[s:e])
	if int(b.maps.Value(r)) != len(j.MapDurations) {
		return rowErr(b.row0+r, ColMaps, "%d, but %s has %d entries", b.maps.Value(r), ColMapDurations, len(j.MapDurations))
	}
	if int(b.reds.Value(r)) != len(j.ReduceDurations) {
		return rowErr(b.row0+r, ColReduces, "%d, but %s has %d entries", b.reds.Value(r), ColReduceDurations, len(j.ReduceDurations))
	}
	return nil
}

// clone copies v into a new, never-nil slice so decoded traces do not keep
// Arrow buffers alive and compare equal to hand-built ones.
func clone[T any](v []T) []T {
	out := make([]T, len(v))
	copy(out, v)
	return out
}

// Reader reads a trace one job at a time, holding one record batch in
// memory, so that a replay of a trace of any size needs the memory of the
// jobs in flight, not of the whole trace. Jobs are validated as they are
// read, with the errors of Read.
type Reader struct {
	name   string
	f      *os.File
	fr     *ipc.FileReader
	idx    []int
	params map[string]string
	n      int // jobs in the file
	b      batch
	next   int // next batch
	r      int // next row in b
	row    int // rows read
	v      validator
}

// ErrJobCount marks a file whose record batches do not hold the number of
// jobs its metadata declares (generator.jobs).
var ErrJobCount = errors.New("job count does not match the metadata")

// Open opens the trace at path for reading job by job. The number of jobs
// is the sum of the record batches' row counts; a generator.jobs
// parameter that disagrees with it is an error (ErrJobCount), never
// trusted.
func Open(path string) (r *Reader, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w: corrupt Arrow data (%v)", path, ErrNotTrace, p)
		}
		if err != nil {
			f.Close()
		}
	}()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, want a trace file", path)
	}
	fr, idx, params, layout, err := openIPC(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r = &Reader{name: path, f: f, fr: fr, idx: idx, params: params, n: int(layout.TotalRows())}
	if err := checkJobCount(params, r.n); err != nil {
		fr.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// checkJobCount compares the generator.jobs parameter, when present, with
// the rows of the file.
func checkJobCount(params map[string]string, rows int) error {
	v, ok := params["generator.jobs"]
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%w: metadata generator.jobs is %q, want a count of jobs >= 0", ErrJobCount, v)
	}
	if n != int64(rows) {
		return fmt.Errorf("%w: metadata generator.jobs says %d, the file holds %d rows", ErrJobCount, n, rows)
	}
	return nil
}

// Params returns the trace's parameters.
func (r *Reader) Params() map[string]string { return r.params }

// Len is the number of jobs in the trace.
func (r *Reader) Len() int { return r.n }

// Next reads the next job into j (with new task slices); it returns io.EOF
// after the last job. Errors name the file, and the row and column of a
// bad value.
func (r *Reader) Next(j *Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: %w: corrupt Arrow data (%v)", r.name, ErrNotTrace, p)
		}
	}()
	for r.r == r.b.n {
		if r.next == r.fr.NumRecords() {
			if r.row != r.n {
				return fmt.Errorf("%s: %w: %d jobs, metadata says %d", r.name, ErrJobCount, r.row, r.n)
			}
			return io.EOF
		}
		rec, err := r.fr.Record(r.next)
		if err != nil {
			return fmt.Errorf("%s: %w: record batch %d: %v", r.name, ErrNotTrace, r.next, err)
		}
		r.next++
		if err := r.b.load(rec, r.idx, r.row); err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		r.r = 0
	}
	if r.row == r.n {
		return fmt.Errorf("%s: %w: more than the %d jobs it declares", r.name, ErrJobCount, r.n)
	}
	if err := r.b.job(r.r, j); err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	if err := r.v.check(r.row, j); err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	r.r++
	r.row++
	return nil
}

// Close closes the file.
func (r *Reader) Close() error {
	r.fr.Close()
	return r.f.Close()
}
