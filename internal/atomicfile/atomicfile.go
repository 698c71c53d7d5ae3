// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a half-written file.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write creates path by calling fill on a temporary file in the same
// directory, syncing it and renaming it over path. If fill or any step
// fails, the temporary file is removed and path is left untouched.
// Missing parent directories are created. Errors are returned as they come;
// callers add the path.
func Write(path string, fill func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = fill(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return nil
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteFrom copies r to path atomically.
func WriteFrom(path string, r io.Reader) error {
	return Write(path, func(f *os.File) error {
		_, err := io.Copy(f, r)
		return err
	})
}
