package atomicfile

import (
	"errors"
	"io/fs"
	"os"
)

var errUnsupported = errors.New("atomic exchange not supported")

// ReplaceDir puts the complete directory tmp at final, in place of what
// final held, and removes the old one. On Linux the two swap in one step,
// so final always names either the old set or the new one, whole, even if
// the process is killed; elsewhere the old one is renamed aside first, and
// a kill between the two renames leaves final missing (the old set under
// its hidden name), never half of one.
func ReplaceDir(tmp, final string) error {
	if _, err := os.Lstat(final); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, final)
	}
	switch err := exchange(tmp, final); {
	case err == nil:
		return os.RemoveAll(tmp) // now the old set
	case !errors.Is(err, errUnsupported):
		return err
	}
	old := tmp + ".old"
	if err := os.Rename(final, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	return os.RemoveAll(old)
}
