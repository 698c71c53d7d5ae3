package exec

import (
	"os"

	"golang.org/x/sys/unix"
)

// unreadBytes is the number of bytes waiting in pipe f (FIONREAD).
func unreadBytes(f *os.File) int {
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ)
	if err != nil {
		return 0
	}
	return n
}
