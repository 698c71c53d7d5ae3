//go:build unix

package sweep

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockShard keeps two bench sweep processes from running the same cells in
// one directory, where each would remove the other's cells in progress as
// debris: an unsharded run locks the directory itself for itself alone;
// the shards of an array share the lock (each shard owns its own cells).
// The lock lives on the directory, so it leaves no file behind, and goes
// with the process however it ends.
func lockShard(dir string, s Shard) (release func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_EX
	if s.Count > 1 {
		how = unix.LOCK_SH
	}
	if err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("sweep: another bench sweep is running in %s (an unsharded run excludes every other)", dir)
		}
		return nil, fmt.Errorf("sweep: lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
