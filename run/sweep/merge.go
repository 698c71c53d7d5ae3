package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	switch data, err := os.ReadFile(mpath); {
	case os.IsNotExist(err):
		if err := atomicfile.WriteBytes(mpath, ref); err != nil {
			return rep, fmt.Errorf("%s: %w", mpath, err)
		}
	case err != nil:
		return rep, err
	case !bytes.Equal(data, ref):
		return rep, fmt.Errorf("%s differs from %s: --out holds another sweep", mpath, filepath.Join(inputs[0], ManifestFile))
	}
	if err := mergeTraces(out, inputs); err != nil {
		return rep, err
	}
	var missing []int
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
		if rec != nil {
			// Check the record before it is copied or summarized.
			path := filepath.Join(from, dir, CellFile)
			r, err := ParseCell(rec, path)
			if err != nil {
				return rep, err
			}
			if r.Index != i {
				return rep, fmt.Errorf("%s: index %d, want %d", path, r.Index, i)
			}
		}
		switch {
		case rec == nil:
			missing = append(missing, i)
		case from != out:
			if err := copyCell(filepath.Join(from, dir), filepath.Join(out, dir)); err != nil {
				return rep, err
			}
			rep.Copied++
		}
	}
	if len(missing) > 0 {
		return rep, fmt.Errorf("merge: %d of %d cells are in no shard directory, first %s; run their shards again",
			len(missing), m.Cells, intList(missing, 8))
	}
	return rep, summarize(out)
}

// mergeTraces copies every trace of the inputs into out; a trace that
// two directories both hold must have the same bytes.
func mergeTraces(out string, inputs []string) error {
	for _, in := range inputs {
		ents, err := os.ReadDir(filepath.Join(in, "traces"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
				continue
			}
			src, dst := filepath.Join(in, "traces", e.Name()), filepath.Join(out, "traces", e.Name())
			a, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			switch b, err := os.ReadFile(dst); {
			case os.IsNotExist(err):
				if err := atomicfile.WriteBytes(dst, a); err != nil {
					return fmt.Errorf("%s: %w", dst, err)
				}
			case err != nil:
				return err
			case !bytes.Equal(a, b):
				return fmt.Errorf("%s differs from %s", src, dst)
			}
		}
	}
	return nil
}

// copyCell copies a finished cell's directory into place atomically.
func copyCell(src, dst string) error {
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
			return os.MkdirAll(target, 0o755)
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
