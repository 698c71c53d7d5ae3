package results

import (
	"os"
	"path/filepath"
	"testing"

	"sojourn/internal/fuzzguard"
)

// fuzzResults seeds f with the jobs or tasks file of a small replay and
// fuzzes read on the file's bytes: it must return a result or an error
// naming the file, never panic, hang or exhaust memory.
func fuzzResults(f *testing.F, name string, read func(path string) error) {
	dir := f.TempDir()
	tr := testTrace(12)
	r, err := runFIFO(tr)
	if err != nil {
		f.Fatal(err)
	}
	if err := WriteAll(dir, r, Metadata(r, tr, nil)); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("ARROW1\x00\x00"))
	// One file per worker process (each runs this function), rewritten
	// for every input: a directory per input halved the executions.
	path := filepath.Join(f.TempDir(), "fuzz-"+name)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzguard.Within(t, func() {
			if err := read(path); err != nil && len(err.Error()) < len(path) {
				t.Fatalf("error %q does not name the file", err)
			}
		})
	})
}

func FuzzReadJobs(f *testing.F) {
	fuzzResults(f, "jobs.arrow", func(path string) error { _, err := ReadJobs(path); return err })
}

func FuzzReadTasks(f *testing.F) {
	fuzzResults(f, "tasks.arrow", func(path string) error { _, err := ReadTasks(path); return err })
}
