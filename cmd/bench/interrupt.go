package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"sojourn/internal/atomicfile"
)

// removeOnInterrupt makes a SIGINT or SIGTERM during a command that
// writes files (generate, replay) remove the temporary files not yet
// committed, say so on w, and exit with status 130 (SIGINT) or 143
// (SIGTERM): an interrupted run leaves no debris and nothing under a
// result's name. Call the returned function when the command is done.
func removeOnInterrupt(w io.Writer, cmd string) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			removed := atomicfile.AbortAll()
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			fmt.Fprintf(w, "bench: %s: interrupted (%v); removed %d temporary file(s), wrote nothing\n", cmd, sig, len(removed))
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// sameFile reports whether a and b (followed through symbolic links) are
// the same existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
