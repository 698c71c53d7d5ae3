package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestPending: nothing appears under the path until Commit; Abort leaves
// the old content and no temporary file; Commit replaces it whole.
func TestPending(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.txt")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	p, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.File().WriteString("new, half"); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "old")
	p.Abort()
	assertContent(t, path, "old")
	assertFiles(t, filepath.Dir(path), 1)

	p, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.File().WriteString("new"); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	p.Abort() // after Commit: nothing
	assertContent(t, path, "new")
	assertFiles(t, filepath.Dir(path), 1)
}

// TestWriteFailure: a failing fill leaves the old file and no temporary.
func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(f *os.File) error {
		f.WriteString("partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Write: %v, want %v", err, boom)
	}
	assertContent(t, path, "old")
	assertFiles(t, dir, 1)
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Fatalf("%s holds %q, want %q", path, b, want)
	}
}

func assertFiles(t *testing.T, dir string, n int) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != n {
		t.Fatalf("%s holds %d files, want %d", dir, len(ents), n)
	}
}
