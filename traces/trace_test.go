package traces

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"sojourn/internal/fuzzguard"
)

func sample() *Trace {
	return &Trace{
		Params: map[string]string{"generator.seed": "7", "generator.profile": "test"},
		Jobs: []Job{
			{ID: 0, Name: "job0", Submit: 0, Pool: "alice", Priority: Normal, Class: "small",
				MapInputBytes: 100, ShuffleBytes: 0, OutputBytes: 10,
				MapDurations: []float64{12.5}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{},
				MapMemoryBytes: 1 << 28, ReduceMemoryBytes: 1 << 30},
			{ID: 5, Name: "job5", Submit: 13.25, Pool: "bob", Priority: VeryHigh, Class: "medium",
				MapInputBytes: 1 << 30, ShuffleBytes: 3 << 20, OutputBytes: 1 << 20,
				MapDurations: []float64{60, 61.5, 59}, ReduceDurations: []float64{120, 80},
				ReduceShuffleBytes: []int64{2 << 20, 1 << 20}, MapMemoryBytes: 1 << 28, ReduceMemoryBytes: 1 << 30},
		},
	}
}

func TestRoundTripEveryColumn(t *testing.T) {
	want := sample()
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the trace:\n got %+v\nwant %+v", got, want)
	}
}

func TestRoundTripManyBatches(t *testing.T) {
	want := &Trace{Params: map[string]string{}}
	for i := 0; i < 2*batchRows+17; i++ {
		want.Jobs = append(want.Jobs, Job{ID: int64(i), Submit: float64(i) / 3,
			MapDurations: []float64{float64(i % 97)}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}})
	}
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := Write(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("round trip over several record batches changed the trace")
	}
}

func TestEncodeIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")
	if err := Write(a, sample()); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, sample()); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if !bytes.Equal(x, y) {
		t.Fatal("two writes of the same trace differ")
	}
}

func TestValidateRefusesBadValues(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(tr *Trace)
		row    int
		column string
	}{
		{"negative map duration", func(tr *Trace) { tr.Jobs[1].MapDurations[2] = -1 }, 1, ColMapDurations},
		{"NaN reduce duration", func(tr *Trace) { tr.Jobs[1].ReduceDurations[0] = math.NaN() }, 1, ColReduceDurations},
		{"infinite map duration", func(tr *Trace) { tr.Jobs[0].MapDurations[0] = math.Inf(1) }, 0, ColMapDurations},
		{"submit out of order", func(tr *Trace) { tr.Jobs[1].Submit = -0.5; tr.Jobs[0].Submit = 0 }, 1, ColSubmit},
		{"submit before previous", func(tr *Trace) { tr.Jobs[0].Submit = 20 }, 1, ColSubmit},
		{"duplicate id", func(tr *Trace) { tr.Jobs[1].ID = 0 }, 1, ColJobID},
		{"shuffle list length", func(tr *Trace) { tr.Jobs[1].ReduceShuffleBytes = []int64{1} }, 1, ColReduceShuffle},
		{"no maps", func(tr *Trace) { tr.Jobs[0].MapDurations = nil }, 0, ColMaps},
		{"bad priority", func(tr *Trace) { tr.Jobs[0].Priority = 9 }, 0, ColPriority},
		{"negative bytes", func(tr *Trace) { tr.Jobs[1].OutputBytes = -3 }, 1, ColOutputBytes},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := sample()
			c.edit(tr)
			err := tr.Validate()
			var re *RowError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RowError", err)
			}
			if re.Row != c.row || re.Column != c.column {
				t.Fatalf("error %q names row %d column %s, want row %d column %s", err, re.Row, re.Column, c.row, c.column)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("%v does not wrap ErrInvalid", err)
			}
			if Encode(&memFile{}, tr) == nil {
				t.Fatal("Encode accepted an invalid trace")
			}
		})
	}
}

// writeRaw writes an Arrow file with the trace schema but arbitrary column
// values, to check what Read does with files other writers made.
func writeRaw(t *testing.T, md map[string]string, maps int32, durs []float64) string {
	t.Helper()
	tr := &Trace{Params: map[string]string{}}
	schema := Schema(tr)
	keys, vals := []string{}, []string{}
	for _, k := range []string{KeyKind, KeySchemaVersion} {
		if v, ok := md[k]; ok {
			keys, vals = append(keys, k), append(vals, v)
		}
	}
	m := arrow.NewMetadata(keys, vals)
	schema = arrow.NewSchema(schema.Fields(), &m)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	j := Job{ID: 1, MapDurations: durs, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	appendJob(b, &j)
	rec := b.NewRecord()
	// Overwrite the maps column with the requested count.
	cols := rec.Columns()
	ib := array.NewInt32Builder(mem)
	ib.Append(maps)
	cols[6] = ib.NewArray()
	rec = array.NewRecord(schema, cols, 1)
	path := filepath.Join(t.TempDir(), "raw.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f.Close()
	return path
}

func TestReadRefusesBadFiles(t *testing.T) {
	good := map[string]string{KeyKind: KindTrace, KeySchemaVersion: SchemaVersion}
	dir := t.TempDir()
	okPath := filepath.Join(dir, "ok.arrow")
	if err := Write(okPath, sample()); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(okPath)
	trunc := filepath.Join(dir, "trunc.arrow")
	os.WriteFile(trunc, whole[:len(whole)/2], 0o644)
	text := filepath.Join(dir, "text.arrow")
	os.WriteFile(text, []byte("job0\t1\t1\t2\t3\t4\n"), 0o644)

	cases := []struct {
		name     string
		path     string
		sentinel error
		mention  string
	}{
		{"count disagrees with durations", writeRaw(t, good, 3, []float64{1, 2}), ErrInvalid, "row 0, column maps"},
		{"negative duration", writeRaw(t, good, 2, []float64{1, -2}), ErrInvalid, "row 0, column map_durations_s"},
		{"unknown schema version", writeRaw(t, map[string]string{KeyKind: KindTrace, KeySchemaVersion: "99"}, 1, []float64{1}), ErrSchemaVersion, `"99"`},
		{"no schema version", writeRaw(t, map[string]string{}, 1, []float64{1}), ErrNotTrace, KeySchemaVersion},
		{"truncated file", trunc, ErrNotTrace, "trunc.arrow"},
		{"not arrow", text, ErrNotTrace, "text.arrow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.path)
			if !errors.Is(err, c.sentinel) {
				t.Fatalf("got %v, want %v", err, c.sentinel)
			}
			if !strings.Contains(err.Error(), c.mention) || !strings.Contains(err.Error(), filepath.Base(c.path)) {
				t.Fatalf("error %q should name the file and %q", err, c.mention)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q spans several lines", err)
			}
		})
	}
}

func FuzzDecodeNeverPanics(f *testing.F) {
	var buf memFile
	if err := Encode(&buf, sample()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.data)
	var many memFile
	if err := Encode(&many, manyRows(20)); err != nil {
		f.Fatal(err)
	}
	f.Add(many.data)
	f.Add([]byte("ARROW1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			tr, err := Decode(bytes.NewReader(data))
			if err == nil && tr.Validate() != nil {
				t.Fatal("Decode returned a trace that does not validate")
			}
		})
	})
}

// memFile is an in-memory io.WriteSeeker.
type memFile struct {
	data []byte
	off  int64
}

func (m *memFile) Write(p []byte) (int, error) {
	if end := m.off + int64(len(p)); end > int64(len(m.data)) {
		m.data = append(m.data, make([]byte, end-int64(len(m.data)))...)
	}
	copy(m.data[m.off:], p)
	m.off += int64(len(p))
	return len(p), nil
}

func (m *memFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case 0:
		m.off = off
	case 1:
		m.off += off
	case 2:
		m.off = int64(len(m.data)) + off
	}
	return m.off, nil
}

// TestInvalidUTF8Refused: text columns and parameters hold UTF-8 only,
// so a trace never stores bytes its readers would replace or refuse.
func TestInvalidUTF8Refused(t *testing.T) {
	j := Job{ID: 1, Name: "a\xffb", MapDurations: []float64{1}, ReduceDurations: []float64{}, ReduceShuffleBytes: []int64{}}
	var re *RowError
	if err := (&Trace{Jobs: []Job{j}}).Validate(); !errors.As(err, &re) || re.Column != ColName || !strings.Contains(re.Msg, "byte 2 (0xff)") {
		t.Errorf("name: %v", err)
	}
	j.Name, j.Class = "a", "\xc3"
	if err := (&Trace{Jobs: []Job{j}}).Validate(); !errors.As(err, &re) || re.Column != ColClass {
		t.Errorf("class: %v", err)
	}
	if err := CheckParams(map[string]string{"ok": "x", "import.source": "in\xfe.csv"}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "import.source") {
		t.Errorf("params: %v", err)
	}
}
