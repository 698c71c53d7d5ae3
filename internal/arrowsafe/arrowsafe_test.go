package arrowsafe

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// file writes an Arrow IPC file of one column of type dt and n rows of
// default values.
func file(t *testing.T, dt arrow.DataType, n int) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil)
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 { // n < 0: the schema only
		b := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
		defer b.Release()
		for range n {
			b.Field(0).AppendNull()
		}
		rec := b.NewRecord()
		defer rec.Release()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestCheckSound(t *testing.T) {
	data := file(t, arrow.ListOf(arrow.PrimitiveTypes.Float64), 5)
	l, err := Check(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if l.TotalRows() != 5 || len(l.Rows) != 1 {
		t.Fatalf("layout %+v, want one batch of 5 rows", l)
	}
}

// TestCheckDepth: a schema nested deeper than MaxDepth is refused before
// the library recurses into it.
func TestCheckDepth(t *testing.T) {
	var dt arrow.DataType = arrow.PrimitiveTypes.Int64
	for range MaxDepth + 1 {
		dt = arrow.ListOf(dt)
	}
	data := file(t, dt, -1)
	_, err := Check(bytes.NewReader(data), int64(len(data)))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("schema %d deep: %v, want a nesting error", MaxDepth+2, err)
	}
}

// TestCheckEveryTruncation: every prefix of a file is refused.
func TestCheckEveryTruncation(t *testing.T) {
	data := file(t, arrow.BinaryTypes.String, 3)
	for n := range len(data) {
		if _, err := Check(bytes.NewReader(data[:n]), int64(n)); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("first %d of %d bytes: %v, want ErrCorrupt", n, len(data), err)
		}
	}
}

// TestAllocatorLimit: an allocation beyond the limit panics with
// ErrAllocation instead of exhausting memory.
func TestAllocatorLimit(t *testing.T) {
	a := Allocator(100)
	b := a.Allocate(1000)
	a.Free(b)
	defer func() {
		p := recover()
		if err, ok := p.(error); !ok || !errors.Is(err, ErrAllocation) {
			t.Fatalf("panic %v, want ErrAllocation", p)
		}
	}()
	a.Allocate(1 << 40)
}
