package results

import (
	"os"
	"path/filepath"
	"testing"
)

// TestByteFlips: single-byte corruptions of a jobs.arrow and a
// tasks.arrow (every 11th offset, three values each, among them those that
// made the Arrow library allocate until the process died) are read or
// refused with an error, never a crash (see internal/arrowsafe).
func TestByteFlips(t *testing.T) {
	dir := t.TempDir()
	tr := testTrace(12)
	r, err := runFIFO(tr)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteAll(dir, r, Metadata(r, tr, nil)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		read func(string) error
	}{
		{JobsFile, func(p string) error { _, err := ReadJobs(p); return err }},
		{TasksFile, func(p string) error { _, err := ReadTasks(p); return err }},
	} {
		data, err := os.ReadFile(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), c.name)
		refused := 0
		for off := 0; off < len(data); off += 11 {
			for _, v := range []byte{0x9f, 0x34, 0x01} {
				b := append([]byte(nil), data...)
				b[off] ^= v
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				if c.read(path) != nil {
					refused++
				}
			}
		}
		t.Logf("%s: %d of %d corruptions refused, the others read", c.name, refused, 3*((len(data)+10)/11))
	}
}
