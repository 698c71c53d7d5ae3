//go:build !unix

package sweep

// lockShard is a no-op where flock is not available.
func lockShard(dir string, s Shard) (release func(), err error) { return func() {}, nil }
