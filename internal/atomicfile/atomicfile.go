// Package atomicfile writes files so that a reader sees either the old
// content or the whole new content, never a half-written file.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
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
	f      *os.File
	path   string
	done   bool
	direct bool // a device or a pipe: copied to it at Commit, not renamed
}

// pending are the temporary files not yet committed or aborted, for
// AbortAll.
var (
	mu      sync.Mutex
	pending = map[*Pending]bool{}
	aborted bool // AbortAll ran: no new temporary files
)

// Create starts writing path: a temporary file in the same directory,
// whose parents are created if missing. A symbolic link is followed: the
// file it points to is replaced, not the link. A path that is a device
// or a named pipe (/dev/null, /dev/stdout) is never replaced by a regular
// file: the content goes to a temporary file in os.TempDir and is copied
// to the device at Commit. A directory or another kind of file is an
// error.
func Create(path string) (*Pending, error) {
	target, direct, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(target)
	if direct {
		// Written to a temporary file first, which writers may seek in
		// (an Arrow file's footer), then copied to the device at Commit.
		if fw, err := os.OpenFile(target, os.O_WRONLY, 0); err != nil {
			return nil, err
		} else {
			fw.Close()
		}
		dir = os.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// Created and registered under the lock, so that AbortAll, which
	// takes it, sees every temporary file that exists.
	mu.Lock()
	defer mu.Unlock()
	if aborted {
		return nil, errors.New("interrupted")
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, err
	}
	p := &Pending{f: f, path: target, direct: direct}
	pending[p] = true
	return p, nil
}

// Resolve returns the file a write to path replaces: path itself, or the
// end of the chain of symbolic links it starts (which may not exist yet).
// direct reports a device or a named pipe, to be written in place.
func Resolve(path string) (target string, direct bool, err error) {
	target = path
	for range 40 {
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return target, false, nil
		case err != nil:
			return "", false, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if st, err := os.Stat(target); err == nil {
				// An existing file at the end of the chain.
				switch {
				case st.Mode().IsRegular():
					real, err := filepath.EvalSymlinks(target)
					return real, false, err
				case st.IsDir():
					return "", false, errors.New("is a directory; want a file")
				case st.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
					return target, true, nil // /dev/stdout: a link to a pipe or terminal
				}
				return "", false, fmt.Errorf("is a %v, not a file, device or pipe this can write", st.Mode().Type())
			}
			link, err := os.Readlink(target)
			if err != nil {
				return "", false, err
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(target), link)
			}
			target = link
			continue
		case fi.Mode().IsRegular():
			return target, false, nil
		case fi.IsDir():
			return "", false, errors.New("is a directory; want a file")
		case fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
			return target, true, nil
		default:
			return "", false, fmt.Errorf("is a %v, not a file, device or pipe this can write", fi.Mode().Type())
		}
	}
	return "", false, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// File is the temporary file to write to.
func (p *Pending) File() *os.File { return p.f }

// Commit syncs and closes the file and renames it over its path. On
// failure the temporary file is removed. A device or pipe is closed.
func (p *Pending) Commit() (err error) {
	if p.done {
		return nil
	}
	p.done = true
	defer func() {
		mu.Lock()
		delete(pending, p)
		mu.Unlock()
		if err != nil {
			p.f.Close()
			os.Remove(p.f.Name())
		}
	}()
	if p.direct {
		return p.copyOut()
	}
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
	mu.Lock()
	delete(pending, p)
	mu.Unlock()
}

// copyOut writes the temporary file to the device or pipe and removes it.
func (p *Pending) copyOut() error {
	defer os.Remove(p.f.Name())
	defer p.f.Close()
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w, err := os.OpenFile(p.path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, p.f); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// AbortAll removes every temporary file of this process not yet committed
// or aborted, and returns their names: what an interrupted command cleans
// up before it exits. Files being written may still be written to; they
// are unlinked all the same.
func AbortAll() []string {
	mu.Lock()
	defer mu.Unlock()
	aborted = true
	var names []string
	for p := range pending {
		if os.Remove(p.f.Name()) == nil {
			names = append(names, p.f.Name())
		}
		delete(pending, p)
	}
	sort.Strings(names)
	return names
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}
