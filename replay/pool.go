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
	x, _ := s.take(n)
	return x
}

// getZeroed is get with every element zero. A fresh slice is zeroed by
// the runtime, which leaves the pages of a large one untouched (memory
// the operating system maps on first use); only a recycled one is cleared.
func (s *slabs[T]) getZeroed(n int) []T {
	x, recycled := s.take(n)
	if recycled {
		clear(x)
	}
	return x
}

// take returns a slice of length n, recycled if one of its capacity was
// given back, else new.
func (s *slabs[T]) take(n int) (x []T, recycled bool) {
	if n == 0 {
		return nil, false
	}
	c := bits.Len(uint(n - 1))
	if l := s.free[c]; len(l) > 0 {
		x = l[len(l)-1]
		s.free[c] = l[:len(l)-1]
		return x[:n], true
	}
	return make([]T, n, 1<<c), false
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
