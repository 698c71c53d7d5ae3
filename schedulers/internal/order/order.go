// Package order is the job orders policies share: Hadoop's FIFO order of
// jobs, and a subset of jobs kept in that order.
package order

import (
	"slices"

	"sojourn/replay"
)

// FIFO orders jobs as Hadoop's JobQueueJobInProgressListener does:
// priority (highest first), then submit time, then trace order.
func FIFO(v *replay.View, a, b int32) int {
	ja, jb := v.Job(a), v.Job(b)
	switch {
	case ja.Priority() != jb.Priority():
		return int(jb.Priority()) - int(ja.Priority())
	case ja.Submit() != jb.Submit():
		if ja.Submit() < jb.Submit() {
			return -1
		}
		return 1
	}
	return int(a) - int(b)
}

// Remove deletes the first x from s, keeping the order.
func Remove[T comparable](s []T, x T) []T {
	if i := slices.Index(s, x); i >= 0 {
		return slices.Delete(s, i, i+1)
	}
	return s
}
