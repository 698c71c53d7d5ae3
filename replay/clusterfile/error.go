package clusterfile

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCluster is wrapped by every error about the content of a cluster
// file; see Error.
var ErrCluster = errors.New("invalid cluster file")

// Error locates a problem in a cluster file: the file, the line (from 1;
// 0 when it concerns the whole file) and the key or keyword concerned, if
// any. Its message is always one line.
type Error struct {
	File string
	Line int
	Key  string // a key ("memory"), a keyword ("resources"), or ""
	Msg  string
	Err  error // the cause of a read error, or nil
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		// A reader's error text is not ours: keep the message on one line.
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(e.Err.Error()))
	}
	return b.String()
}

// Unwrap returns the read error, or ErrCluster for an error of content.
func (e *Error) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return ErrCluster
}
