package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"sojourn/internal/atomicfile"
)

// MergeReport says what Merge did.
type MergeReport struct {
	Cells  int // in the sweep
	Copied int // cells copied into the output
}

// Merge joins the output directories of a sweep's shards into out and
// writes its summary. Every input must hold the same sweep.json (same
// sweep, code and output settings). Cells and traces already in out are
// kept, and out may be one of the inputs (shards that shared a directory
// merge in place). A cell found in several inputs must have the same
// record everywhere. Each cell is copied beside its place and renamed into
// it, so an interrupted merge is resumed by running it again. The result
// does not depend on the number of shards or the order of the inputs.
func Merge(out string, inputs []string) (MergeReport, error) {
	var rep MergeReport
	if len(inputs) == 0 {
		return rep, errors.New("merge: no shard directories given")
	}
	m, ref, err := readManifest(inputs[0])
	if err != nil {
		return rep, err
	}
	rep.Cells = m.Cells
	for _, in := range inputs[1:] {
		_, data, err := readManifest(in)
		if err != nil {
			return rep, err
		}
		if !bytes.Equal(data, ref) {
			return rep, fmt.Errorf("%s differs from %s: shards of different sweeps, builds or output settings",
				filepath.Join(in, ManifestFile), filepath.Join(inputs[0], ManifestFile))
		}
	}
	mpath := filepath.Join(out, ManifestFile)
	data, err := os.ReadFile(mpath)
	haveManifest := err == nil
	switch {
	case err != nil && !os.IsNotExist(err):
		return rep, err
	case haveManifest && !bytes.Equal(data, ref):
		return rep, fmt.Errorf("%s differs from %s: --out holds another sweep", mpath, filepath.Join(inputs[0], ManifestFile))
	}
	// First every cell and trace taken is checked against its record;
	// nothing is written until all are, so an error leaves no file of a
	// broken shard under a final name.
	type take struct {
		from string
		rec  *CellRecord
	}
	takes := make([]take, m.Cells)
	var missing []int
	traceSums := map[string]string{} // trace path under the sweep → sha256
	traceUser := map[string]string{} // → the first cell.json naming it
	for i := 0; i < m.Cells; i++ {
		dir := cellDir(i)
		var rec []byte // the cell's record, as first seen
		var from string
		for _, d := range append([]string{out}, inputs...) {
			data, err := os.ReadFile(filepath.Join(d, dir, CellFile))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return rep, err
			}
			switch {
			case rec == nil:
				rec, from = data, d
			case !bytes.Equal(rec, data):
				return rep, fmt.Errorf("cell %d differs between %s and %s", i, from, d)
			}
		}
		if rec == nil {
			missing = append(missing, i)
			continue
		}
		path := filepath.Join(from, dir, CellFile)
		r, err := ParseCell(rec, path)
		if err != nil {
			return rep, err
		}
		if r.Index != i {
			return rep, fmt.Errorf("%s: index %d, want %d", path, r.Index, i)
		}
		if err := checkCellFiles(filepath.Join(from, dir), r); err != nil {
			return rep, err
		}
		if s, ok := traceSums[r.Trace]; ok && s != r.TraceSum {
			return rep, fmt.Errorf("%s: trace %s with sha256 %s; %s gives %s", path, r.Trace, r.TraceSum, traceUser[r.Trace], s)
		}
		traceSums[r.Trace], traceUser[r.Trace] = r.TraceSum, path
		takes[i] = take{from, r}
	}
	if len(missing) > 0 {
		return rep, fmt.Errorf("merge: %d of %d cells are in no shard directory, first %s; run their shards again",
			len(missing), m.Cells, intList(missing, 8))
	}
	traceFrom := map[string]string{}
	for _, t := range sortedKeys(traceSums) {
		src, err := findTrace(t, traceSums[t], traceUser[t], append([]string{out}, inputs...))
		if err != nil {
			return rep, err
		}
		traceFrom[t] = src
	}
	if !haveManifest {
		if err := atomicfile.WriteBytes(mpath, ref); err != nil {
			return rep, fmt.Errorf("%s: %w", mpath, err)
		}
	}
	for _, t := range sortedKeys(traceFrom) {
		dst := filepath.Join(out, filepath.FromSlash(t))
		if traceFrom[t] == dst {
			continue
		}
		data, err := os.ReadFile(traceFrom[t])
		if err != nil {
			return rep, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return rep, err
		}
		if err := atomicfile.WriteBytes(dst, data); err != nil {
			return rep, fmt.Errorf("%s: %w", dst, err)
		}
	}
	for i, t := range takes {
		if t.from == out {
			continue
		}
		if err := copyCell(filepath.Join(t.from, cellDir(i)), filepath.Join(out, cellDir(i)), t.rec); err != nil {
			return rep, err
		}
		rep.Copied++
	}
	return rep, summarize(out)
}

// checkCellFiles checks the files of the cell in dir against its record:
// each there, of its size and SHA-256.
func checkCellFiles(dir string, r *CellRecord) error {
	if len(r.Files) == 0 {
		return fmt.Errorf("%s: no files recorded (a cell of an older build, or edited); run its shard again", filepath.Join(dir, CellFile))
	}
	for _, f := range r.Files {
		p := filepath.Join(dir, f.Name)
		n, sum, err := fileSum(p)
		switch {
		case os.IsNotExist(err):
			return fmt.Errorf("%s: missing; %s records %d bytes", p, CellFile, f.Bytes)
		case err != nil:
			return err
		case n != f.Bytes:
			return fmt.Errorf("%s: %d bytes; %s records %d (truncated or replaced)", p, n, CellFile, f.Bytes)
		case sum != f.SHA256:
			return fmt.Errorf("%s: sha256 %s; %s records %s (changed since it was written)", p, sum, CellFile, f.SHA256)
		}
	}
	return nil
}

// findTrace is the path of trace t (a path under a sweep's directory) in
// the first of dirs that holds it; its bytes must have the sha256 the
// cells record (user names one of them).
func findTrace(t, sum, user string, dirs []string) (string, error) {
	for _, d := range dirs {
		p := filepath.Join(d, filepath.FromSlash(t))
		_, got, err := fileSum(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		if got != sum {
			return "", fmt.Errorf("%s: sha256 %s; %s records %s (changed since the cells replayed it)", p, got, user, sum)
		}
		return p, nil
	}
	return "", fmt.Errorf("%s: in no shard directory; %s replayed it", t, user)
}

// copyCell copies a finished cell's directory into place atomically.
func copyCell(src, dst string, rec *CellRecord) error {
	keep := map[string]bool{CellFile: true}
	for _, f := range rec.Files {
		keep[f.Name] = true
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".partial-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(tmp, rel)
		if d.IsDir() {
			if path != src {
				return filepath.SkipDir // a sweep writes none
			}
			return os.MkdirAll(target, 0o755)
		}
		if !keep[rel] {
			return nil // not the sweep's
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		if err := out.Sync(); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
