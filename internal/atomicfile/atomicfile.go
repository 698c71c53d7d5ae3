// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a half-written file.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write creates path by calling fill on a temporary file in the same
// directory, syncing it and renaming it over path. If fill or any step
// fails, the temporary file is removed and path is left untouched.
// Missing parent directories are created. Errors are returned as they come;
// callers add the path.
func Write(path string, fill func(f *os.File) error) error {
	p, err := Create(path)
	if err != nil {
		return err
	}
	if err := fill(p.File()); err != nil {
		p.Abort()
		return err
	}
	return p.Commit()
}

// Pending is a file being written for a path, invisible under that path
// until Commit: for output written over a long time, such as the rows of
// a replay as it runs.
type Pending struct {
	f    *os.File
	path string
	done bool
}

// Create starts writing path: a temporary file in the same directory,
// whose parents are created if missing.
func Create(path string) (*Pending, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &Pending{f: f, path: path}, nil
}

// File is the temporary file to write to.
func (p *Pending) File() *os.File { return p.f }

// Commit syncs and closes the file and renames it over its path. On
// failure the temporary file is removed.
func (p *Pending) Commit() (err error) {
	if p.done {
		return nil
	}
	p.done = true
	defer func() {
		if err != nil {
			p.f.Close()
			os.Remove(p.f.Name())
		}
	}()
	if err = p.f.Sync(); err != nil {
		return err
	}
	if err = p.f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(p.f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(p.f.Name(), p.path)
}

// Abort discards the file, leaving its path untouched. It does nothing
// after Commit.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.f.Close()
	os.Remove(p.f.Name())
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}
