package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sojourn/traces"
)

// TestOutThroughLinksAndPipes: --out follows a symbolic link to the file
// it names (the link stays), writes through a named pipe (which stays a
// pipe), and refuses a directory and its own input.
func TestOutThroughLinksAndPipes(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.arrow")
	link := filepath.Join(dir, "link.arrow")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := bench(t, "generate", "--profile", "fb2009", "--jobs", "5", "--out", link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a link: %v %v", link, fi, err)
	}
	if _, err := traces.Read(target); err != nil {
		t.Fatalf("the link's target: %v", err)
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	got := make(chan []byte)
	go func() {
		for {
			f, err := os.Open(fifo) // once for the check, once for the data
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			if len(b) > 0 {
				got <- b
				return
			}
		}
	}()
	_, stderr, err := bench(t, "generate", "--profile", "fb2009", "--jobs", "5", "--out", fifo)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "wrote "+fifo) {
		t.Errorf("the summary line of a pipe output went to stdout, with the data: stderr %q", stderr)
	}
	select {
	case b := <-got:
		if _, err := traces.Decode(bytes.NewReader(b)); err != nil {
			t.Fatalf("the trace read from the pipe: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("nothing came through the pipe")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("%s is no longer a pipe: %v", fifo, err)
	}

	wantOneLine(t, []string{"generate", "--profile", "fb2009", "--out", dir}, dir+": is a directory")
	swimFile := filepath.Join(dir, "w-2009.tsv")
	if err := os.WriteFile(swimFile, []byte("j\t0\t0\t1\t1\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantOneLine(t, []string{"generate", "--swim", swimFile, "--out", swimFile}, "--out: "+swimFile+" is the --swim input")
	if b, _ := os.ReadFile(swimFile); string(b) != "j\t0\t0\t1\t1\t1\n" {
		t.Fatal("the SWIM input was changed")
	}
}

// TestReplayOutIsASet: bench replay --out writes its manifest last, with
// the files of the run; a second run into the directory is refused
// without --force; with --force in another format, the earlier run's
// files of the other format are removed; a trace inside --out under a
// result's name is refused.
func TestReplayOutIsASet(t *testing.T) {
	dir := t.TempDir()
	trace := smallTrace(t, dir)
	out := filepath.Join(dir, "run")
	if _, _, err := bench(t, "replay", "--trace", trace, "--out", out); err != nil {
		t.Fatal(err)
	}
	manifest := func() runManifest {
		t.Helper()
		var m runManifest
		b, err := os.ReadFile(filepath.Join(out, RunManifest))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := manifest(); len(m.Files) != 3 || m.Files[0].Name != "jobs.arrow" || m.Policy != "fifo" {
		t.Fatalf("manifest %+v", m)
	}
	wantOneLine(t, []string{"replay", "--trace", trace, "--out", out}, "--out: "+out+" holds the results of an earlier run (run.json); give --force")
	if _, _, err := bench(t, "replay", "--trace", trace, "--out", out, "--force", "--format", "parquet", "--tasks=false"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(out)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "jobs.parquet occupancy.parquet run.json" {
		t.Fatalf("after a forced parquet run without tasks: %v", names)
	}
	if m := manifest(); m.TableFormat != "parquet" || len(m.Files) != 2 {
		t.Fatalf("manifest %+v", m)
	}
	inside := filepath.Join(out, "jobs.arrow")
	if err := os.Rename(trace, inside); err != nil {
		t.Fatal(err)
	}
	wantOneLine(t, []string{"replay", "--trace", inside, "--out", out, "--force"}, "would replace the --trace input")
}

// TestReplayInterrupted: SIGTERM during a replay removes its temporary
// files, says so in one line and exits with 143; nothing is left under a
// result's name.
func TestReplayInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("a replay of a few seconds")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "big.arrow")
	if _, _, err := bench(t, "generate", "--profile", "fb2010", "--jobs", "3000", "--out", trace); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	cmd := exec.Command(os.Args[0], "replay", "--trace", trace, "--out", out)
	cmd.Env = append(os.Environ(), "BENCH_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ents, _ := os.ReadDir(out)
		if len(ents) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no temporary file appeared")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 143 {
		t.Fatalf("exit %v after SIGTERM, want 143 (stderr %q)", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "bench: replay: interrupted (terminated); removed ") {
		t.Fatalf("last stderr line %q", last)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Fatalf("left in %s: %v", out, ents)
	}
}
