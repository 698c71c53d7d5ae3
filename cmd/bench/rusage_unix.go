//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// peakRSS is the process's maximum resident set size in bytes, from
// getrusage (Linux reports kilobytes, macOS and the BSDs other than
// FreeBSD bytes).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
