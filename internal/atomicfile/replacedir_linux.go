//go:build linux

package atomicfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the directories at a and b in one step (renameat2 with
// RENAME_EXCHANGE); errUnsupported when the file system cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errUnsupported
	}
	return err
}
