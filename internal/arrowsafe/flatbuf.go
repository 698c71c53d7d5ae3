package arrowsafe

import (
	"encoding/binary"
	"fmt"
)

// fb is a flatbuffer checked as it is walked: every offset, vtable,
// vector and string is bounds-checked before anything reads it, so that
// the Arrow library, which trusts them, only ever sees a buffer whose
// structure is sound.
type fb struct {
	b      []byte
	what   string // "footer", "record batch 3 metadata", … for errors
	budget int    // tables that may still be visited (cycles, sharing)
}

func newFB(b []byte, what string) *fb {
	return &fb{b: b, what: what, budget: len(b)/4 + 16}
}

func (f *fb) errf(format string, args ...any) error {
	return fmt.Errorf("%s: %s", f.what, fmt.Sprintf(format, args...))
}

func (f *fb) u32(pos int) (uint32, error) {
	if pos < 0 || pos+4 > len(f.b) {
		return 0, f.errf("offset %d out of bounds (%d bytes)", pos, len(f.b))
	}
	return binary.LittleEndian.Uint32(f.b[pos:]), nil
}

// table is a flatbuffer table: its position and its vtable's field
// offsets.
type table struct {
	f      *fb
	pos    int
	fields []uint16
	size   int
}

// root returns the buffer's root table.
func (f *fb) root() (table, error) {
	off, err := f.u32(0)
	if err != nil {
		return table{}, err
	}
	return f.table(int(off))
}

// table checks the table at pos and its vtable.
func (f *fb) table(pos int) (table, error) {
	if f.budget--; f.budget < 0 {
		return table{}, f.errf("more tables than its size allows (a cycle?)")
	}
	so, err := f.u32(pos)
	if err != nil {
		return table{}, err
	}
	vt := pos - int(int32(so))
	if vt < 0 || vt+4 > len(f.b) || vt%2 != 0 {
		return table{}, f.errf("vtable of the table at %d out of bounds", pos)
	}
	vsize := int(binary.LittleEndian.Uint16(f.b[vt:]))
	tsize := int(binary.LittleEndian.Uint16(f.b[vt+2:]))
	if vsize < 4 || vsize%2 != 0 || vt+vsize > len(f.b) || tsize < 4 || pos+tsize > len(f.b) {
		return table{}, f.errf("bad vtable at %d", vt)
	}
	t := table{f: f, pos: pos, size: tsize}
	for i := vt + 4; i < vt+vsize; i += 2 {
		o := binary.LittleEndian.Uint16(f.b[i:])
		if o != 0 && (int(o) < 4 || int(o)+1 > tsize) {
			return table{}, f.errf("field offset %d outside its table of %d bytes", o, tsize)
		}
		t.fields = append(t.fields, o)
	}
	return t, nil
}

// field returns the absolute position of field i, or -1 when absent. The
// field's scalar of size bytes must fit in the table.
func (t table) field(i, size int) (int, error) {
	if i >= len(t.fields) || t.fields[i] == 0 {
		return -1, nil
	}
	o := int(t.fields[i])
	if o+size > t.size {
		return -1, t.f.errf("field %d of the table at %d overruns it", i, t.pos)
	}
	return t.pos + o, nil
}

// int64 reads scalar field i (0 when absent).
func (t table) int64(i int) (int64, error) {
	p, err := t.field(i, 8)
	if err != nil || p < 0 {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(t.f.b[p:])), nil
}

// uint8 reads scalar field i (0 when absent).
func (t table) uint8(i int) (uint8, error) {
	p, err := t.field(i, 1)
	if err != nil || p < 0 {
		return 0, err
	}
	return t.f.b[p], nil
}

// ref follows the offset stored in field i (a table, vector or string);
// -1 when absent.
func (t table) ref(i int) (int, error) {
	p, err := t.field(i, 4)
	if err != nil || p < 0 {
		return -1, err
	}
	off, err := t.f.u32(p)
	if err != nil {
		return -1, err
	}
	target := p + int(off)
	if target >= len(t.f.b) {
		return -1, t.f.errf("reference of field %d of the table at %d out of bounds", i, t.pos)
	}
	return target, nil
}

// sub returns the table field i refers to; ok false when absent.
func (t table) sub(i int) (table, bool, error) {
	p, err := t.ref(i)
	if err != nil || p < 0 {
		return table{}, false, err
	}
	s, err := t.f.table(p)
	return s, err == nil, err
}

// vector checks the vector field i refers to, of elements of elem bytes,
// and returns its length and the position of its first element.
func (t table) vector(i, elem int) (n, start int, err error) {
	p, err := t.ref(i)
	if err != nil || p < 0 {
		return 0, 0, err
	}
	l, err := t.f.u32(p)
	if err != nil {
		return 0, 0, err
	}
	start = p + 4
	if int64(l)*int64(elem) > int64(len(t.f.b)-start) {
		return 0, 0, t.f.errf("vector of %d elements at %d overruns the %d bytes", l, p, len(t.f.b))
	}
	return int(l), start, nil
}

// tables checks the vector of tables field i refers to and calls each
// on its elements.
func (t table) tables(i int, each func(table) error) error {
	n, start, err := t.vector(i, 4)
	if err != nil {
		return err
	}
	for k := range n {
		p := start + 4*k
		off, _ := t.f.u32(p)
		s, err := t.f.table(p + int(off))
		if err != nil {
			return err
		}
		if err := each(s); err != nil {
			return err
		}
	}
	return nil
}

// str checks the string field i refers to.
func (t table) str(i int) error {
	_, _, err := t.vector(i, 1)
	return err
}
