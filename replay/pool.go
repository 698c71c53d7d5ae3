package replay

import "math/bits"

// slabs recycles the per-job arrays of finished jobs (tasks, replicas,
// indexes), by power-of-two capacity: a long replay then stops allocating
// once it has seen its largest jobs, and the garbage collector has little
// to do.
type slabs[T any] struct {
	free [48][][]T
}

// get returns a slice of length n with unspecified contents.
func (s *slabs[T]) get(n int) []T {
	if n == 0 {
		return nil
	}
	c := bits.Len(uint(n - 1))
	if l := s.free[c]; len(l) > 0 {
		x := l[len(l)-1]
		s.free[c] = l[:len(l)-1]
		return x[:n]
	}
	return make([]T, n, 1<<c)
}

// getZeroed is get with every element zero. A fresh slice is zeroed by
// the runtime, which leaves the pages of a large one untouched (memory
// the operating system maps on first use); only a recycled one is cleared.
func (s *slabs[T]) getZeroed(n int) []T {
	if n == 0 {
		return nil
	}
	if l := s.free[bits.Len(uint(n-1))]; len(l) > 0 {
		x := s.get(n)
		clear(x)
		return x
	}
	return s.get(n)
}

// put gives back a slice from get.
func (s *slabs[T]) put(x []T) {
	if cap(x) == 0 {
		return
	}
	c := bits.Len(uint(cap(x) - 1))
	if 1<<c == cap(x) {
		s.free[c] = append(s.free[c], x[:0])
	}
}
