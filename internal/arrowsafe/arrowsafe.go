// Package arrowsafe guards the Arrow IPC file reader of
// github.com/apache/arrow/go against damaged files.
//
// The library trusts the sizes and offsets a file's flatbuffers hold: a
// flipped byte can make it allocate hundreds of gigabytes (a buffer or
// vector length), which kills the process (Go's out-of-memory error is
// fatal, not a panic), or recurse without end through a schema field whose
// children point back at it. The maintained module
// github.com/apache/arrow-go/v18 (v18.8.0, checked) bounds-checks record
// batch buffers but not the schema's vectors or nesting, so both still
// crash it. Check walks the file's footer, schema and every message
// header before the library sees them, bounds-checking every offset,
// vector, block and buffer and the schema's nesting depth; Allocator caps
// each allocation the library makes, so that what Check cannot foresee
// (a compressed buffer's declared size) panics, which the readers recover
// into an error, instead of exhausting memory.
package arrowsafe

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// ErrCorrupt marks a file whose Arrow structure is unsound.
var ErrCorrupt = errors.New("corrupt Arrow IPC file")

// MaxDepth is the deepest nesting of schema fields accepted, the Arrow
// library's own limit for loading arrays.
const MaxDepth = 64

var magic = []byte("ARROW1")

// Layout is what Check learnt of a sound file.
type Layout struct {
	Size int64   // bytes
	Rows []int64 // rows of each record batch, as their headers declare
}

// TotalRows is the number of rows over all record batches.
func (l *Layout) TotalRows() int64 {
	var n int64
	for _, r := range l.Rows {
		n += r
	}
	return n
}

// Check validates the structure of the Arrow IPC file r of size bytes:
// magic numbers, footer, schema (vectors, strings, nesting at most
// MaxDepth) and, for every dictionary and record batch, its block, message
// header, field nodes and buffers against the body. Errors wrap ErrCorrupt
// and name the part at fault.
func Check(r io.ReaderAt, size int64) (*Layout, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	const tail = 10 // int32 footer size + magic
	if size < int64(8+tail) {
		return nil, corrupt("%d bytes, too short for an Arrow file", size)
	}
	var head [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return nil, corrupt("reading its start: %v", err)
	}
	var end [tail]byte
	if _, err := r.ReadAt(end[:], size-tail); err != nil {
		return nil, corrupt("reading its end: %v", err)
	}
	if string(head[:6]) != string(magic) || string(end[4:]) != string(magic) {
		return nil, corrupt("no ARROW1 magic at its start and end (not an Arrow IPC file)")
	}
	flen := int64(binary.LittleEndian.Uint32(end[:4]))
	fstart := size - tail - flen
	if flen < 4 || fstart < 8 {
		return nil, corrupt("footer of %d bytes does not fit in the file of %d bytes", flen, size)
	}
	buf := make([]byte, flen)
	if _, err := r.ReadAt(buf, fstart); err != nil {
		return nil, corrupt("reading the footer: %v", err)
	}
	f := newFB(buf, "footer")
	footer, err := f.root()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	c := checker{r: r, limit: fstart}
	if err := c.footer(footer); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return &Layout{Size: size, Rows: c.rows}, nil
}

type checker struct {
	r     io.ReaderAt
	limit int64 // where the footer starts: every block ends before it
	rows  []int64
}

func (c *checker) footer(t table) error {
	schema, ok, err := t.sub(1)
	if err != nil {
		return err
	}
	if !ok {
		return t.f.errf("no schema")
	}
	if err := c.schema(schema); err != nil {
		return err
	}
	if err := keyValues(t, 4); err != nil {
		return err
	}
	for _, kind := range []struct {
		field  int
		name   string
		header uint8
	}{{2, "dictionary", 2}, {3, "record batch", 3}} {
		n, start, err := t.vector(kind.field, 24)
		if err != nil {
			return err
		}
		for i := range n {
			p := start + 24*i
			off := int64(binary.LittleEndian.Uint64(t.f.b[p:]))
			meta := int64(int32(binary.LittleEndian.Uint32(t.f.b[p+8:])))
			body := int64(binary.LittleEndian.Uint64(t.f.b[p+16:]))
			if err := c.block(fmt.Sprintf("%s %d", kind.name, i), kind.header, off, meta, body); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *checker) schema(t table) error {
	if err := t.tables(1, func(f table) error { return field(f, 1) }); err != nil {
		return err
	}
	if err := keyValues(t, 2); err != nil {
		return err
	}
	_, _, err := t.vector(3, 8)
	return err
}

// field checks a schema field at nesting depth d (1 for a top-level one).
func field(t table, d int) error {
	if d > MaxDepth {
		return t.f.errf("schema fields nested deeper than %d", MaxDepth)
	}
	if err := t.str(0); err != nil {
		return err
	}
	typ, err := t.uint8(2)
	if err != nil {
		return err
	}
	if tt, ok, err := t.sub(3); err != nil {
		return err
	} else if ok {
		switch typ {
		case 14: // Union: typeIds
			if _, _, err := tt.vector(1, 4); err != nil {
				return err
			}
		case 10: // Timestamp: timezone
			if err := tt.str(1); err != nil {
				return err
			}
		}
	}
	if dict, ok, err := t.sub(4); err != nil {
		return err
	} else if ok {
		if _, _, err := dict.sub(1); err != nil {
			return err
		}
	}
	if err := t.tables(5, func(ch table) error { return field(ch, d+1) }); err != nil {
		return err
	}
	return keyValues(t, 6)
}

// keyValues checks the custom metadata vector in field i of t.
func keyValues(t table, i int) error {
	return t.tables(i, func(kv table) error {
		if err := kv.str(0); err != nil {
			return err
		}
		return kv.str(1)
	})
}

// block checks a dictionary or record batch block of the footer and the
// message it points to.
func (c *checker) block(what string, header uint8, off, meta, body int64) error {
	if off < 8 || meta < 8 || body < 0 || off > c.limit || meta > c.limit-off || body > c.limit-off-meta {
		return fmt.Errorf("%s: block at %d (metadata %d bytes, body %d) outside the file's %d bytes of messages",
			what, off, meta, body, c.limit)
	}
	buf := make([]byte, meta)
	if _, err := c.r.ReadAt(buf, off); err != nil {
		return fmt.Errorf("%s: reading its metadata: %v", what, err)
	}
	prefix := 4 // as the library reads it
	switch binary.LittleEndian.Uint32(buf) {
	case 0:
		prefix = 0
	case 0xFFFFFFFF:
		prefix = 8
	}
	f := newFB(buf[prefix:], what+" metadata")
	msg, err := f.root()
	if err != nil {
		return err
	}
	typ, err := msg.uint8(1)
	if err != nil {
		return err
	}
	if typ != header {
		return f.errf("message of type %d, want %d", typ, header)
	}
	h, ok, err := msg.sub(2)
	if err != nil {
		return err
	}
	if !ok {
		return f.errf("message without a header")
	}
	if err := keyValues(msg, 4); err != nil {
		return err
	}
	if header == 2 { // DictionaryBatch: its data is a RecordBatch
		if h, ok, err = h.sub(1); err != nil {
			return err
		} else if !ok {
			return f.errf("dictionary batch without data")
		}
	}
	rows, err := recordBatch(h, body)
	if err != nil {
		return err
	}
	if header == 3 {
		c.rows = append(c.rows, rows)
	}
	return nil
}

// recordBatch checks a RecordBatch header against its body of body bytes
// and returns its row count.
func recordBatch(t table, body int64) (int64, error) {
	// A column of n rows needs at least n bits of body (a boolean or a
	// validity bitmap); every column of the schemas read here has one.
	maxLen := 8*body + 64
	rows, err := t.int64(0)
	if err != nil {
		return 0, err
	}
	if rows < 0 || rows > maxLen {
		return 0, t.f.errf("%d rows in a body of %d bytes", rows, body)
	}
	n, start, err := t.vector(1, 16)
	if err != nil {
		return 0, err
	}
	for i := range n {
		p := start + 16*i
		l := int64(binary.LittleEndian.Uint64(t.f.b[p:]))
		nulls := int64(binary.LittleEndian.Uint64(t.f.b[p+8:]))
		if l < 0 || l > maxLen || nulls < 0 || nulls > l {
			return 0, t.f.errf("field node %d: length %d, null count %d, in a body of %d bytes", i, l, nulls, body)
		}
	}
	nb, start, err := t.vector(2, 16)
	if err != nil {
		return 0, err
	}
	for i := range nb {
		p := start + 16*i
		off := int64(binary.LittleEndian.Uint64(t.f.b[p:]))
		l := int64(binary.LittleEndian.Uint64(t.f.b[p+8:]))
		if off < 0 || l < 0 || off > body || l > body-off {
			return 0, t.f.errf("buffer %d: %d bytes at %d, outside the body of %d bytes", i, l, off, body)
		}
	}
	if _, _, err := t.sub(3); err != nil {
		return 0, err
	}
	nv, start, err := t.vector(4, 8)
	if err != nil {
		return 0, err
	}
	for i := range nv {
		v := int64(binary.LittleEndian.Uint64(t.f.b[start+8*i:]))
		if v < 0 || v > int64(nb) {
			return 0, t.f.errf("variadic buffer count %d of %d buffers", v, nb)
		}
	}
	return rows, nil
}

// ErrAllocation is the panic value of Allocator past its limit.
var ErrAllocation = errors.New("allocation beyond the file's size")

// allocator is a memory.Allocator that refuses any single allocation
// beyond a limit by panicking with ErrAllocation.
type allocator struct {
	memory.Allocator
	limit int
}

// Allocator returns an allocator for reading a file of size bytes: no
// single allocation may exceed 16 times the size plus 1 MiB (an
// uncompressed file never needs more than its size; compressed buffers
// rarely expand beyond that).
func Allocator(size int64) memory.Allocator {
	limit := 16*size + 1<<20
	if limit > 1<<40 || limit < 0 {
		limit = 1 << 40
	}
	return &allocator{Allocator: memory.NewGoAllocator(), limit: int(limit)}
}

func (a *allocator) check(size int) {
	if size < 0 || size > a.limit {
		panic(fmt.Errorf("%w: %d bytes requested, limit %d", ErrAllocation, size, a.limit))
	}
}

func (a *allocator) Allocate(size int) []byte {
	a.check(size)
	return a.Allocator.Allocate(size)
}

func (a *allocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.Allocator.Reallocate(size, b)
}

// File is an Arrow IPC file opened after Check.
type File struct {
	*ipc.FileReader
	Layout *Layout
	f      *os.File
}

// Open opens the Arrow IPC file at path, checks it and opens the
// library's reader on it with a bounded allocator. A panic of the
// library is returned as an error wrapping ErrCorrupt. Errors do not name
// the path; callers add it.
func Open(path string) (file *File, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", ErrCorrupt, p)
		}
		if err != nil {
			f.Close()
			file = nil
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a directory, want an Arrow IPC file")
	}
	l, err := Check(f, st.Size())
	if err != nil {
		return nil, err
	}
	fr, err := ipc.NewFileReader(f, ipc.WithAllocator(Allocator(st.Size())))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if fr.NumRecords() != len(l.Rows) {
		fr.Close()
		return nil, fmt.Errorf("%w: %d record batches, footer checked %d", ErrCorrupt, fr.NumRecords(), len(l.Rows))
	}
	return &File{FileReader: fr, Layout: l, f: f}, nil
}

// Close closes the reader and the file.
func (f *File) Close() error {
	f.FileReader.Close()
	return f.f.Close()
}
