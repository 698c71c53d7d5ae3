//go:build !linux

package atomicfile

// exchange is Linux's atomic swap; elsewhere ReplaceDir takes two steps.
func exchange(a, b string) error { return errUnsupported }
