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

// TestResolve: links are followed to the file they name (existing or not),
// devices are written through, directories refused.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, dangling, chain := filepath.Join(dir, "l"), filepath.Join(dir, "d"), filepath.Join(dir, "c")
	for _, l := range [][2]string{{file, link}, {"sub/new", dangling}, {"l", chain}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	real, _ := filepath.EvalSymlinks(file)
	for _, c := range []struct {
		path, want string
		direct     bool
	}{
		{file, file, false},
		{link, real, false},
		{chain, real, false},
		{dangling, filepath.Join(dir, "sub/new"), false},
		{filepath.Join(dir, "none"), filepath.Join(dir, "none"), false},
		{"/dev/null", "/dev/null", true},
	} {
		got, direct, err := Resolve(c.path)
		if err != nil || got != c.want || direct != c.direct {
			t.Errorf("Resolve(%s) = %s, %v, %v; want %s, %v", c.path, got, direct, err, c.want, c.direct)
		}
	}
	if _, _, err := Resolve(dir); err == nil {
		t.Error("a directory resolved")
	}
	// Writing through the link replaces the file it names; the link stays.
	if err := WriteBytes(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "new" {
		t.Fatalf("the link's file holds %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	// Writing through a device is tested on a named pipe, in cmd/bench:
	// a regression here must not replace the machine's /dev/null.
}

// TestAbortAll: the temporary files of pending writes are removed, and no
// new one is created after.
func TestAbortAll(t *testing.T) {
	dir := t.TempDir()
	p, err := Create(filepath.Join(dir, "a"))
	if err != nil {
		t.Fatal(err)
	}
	names := AbortAll()
	defer func() { mu.Lock(); aborted = false; mu.Unlock() }()
	if len(names) != 1 || names[0] != p.File().Name() {
		t.Fatalf("AbortAll removed %v", names)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
	if _, err := Create(filepath.Join(dir, "b")); err == nil {
		t.Fatal("Create after AbortAll")
	}
}

// ReplaceDir puts the new directory in place of the old, which is gone,
// and into an empty place as well.
func TestReplaceDir(t *testing.T) {
	dir := t.TempDir()
	final, tmp := dir+"/set", dir+"/.set.partial"
	for i, content := range []string{"old", "new"} {
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp+"/a", []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := ReplaceDir(tmp, final); err != nil {
			t.Fatalf("replace %d: %v", i, err)
		}
		got, err := os.ReadFile(final + "/a")
		if err != nil || string(got) != content {
			t.Fatalf("after replace %d: %q, %v", i, got, err)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Fatalf("after replace %d: %s still there", i, tmp)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left beside the set: %v", ents)
	}
}
