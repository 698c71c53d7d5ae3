package clusterfile_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
	"sojourn/replay/clusterfile"
)

// FuzzParse checks that Parse never panics or hangs, that its errors are
// one line beginning with the file's name, and that every cluster it
// accepts is valid and survives Format and Parse unchanged.
func FuzzParse(f *testing.F) {
	for _, tc := range validFiles {
		f.Add([]byte(tc.in))
	}
	for _, tc := range badFiles {
		if len(tc.in) < 1000 {
			f.Add([]byte(tc.in))
		}
	}
	for _, path := range []string{"testdata/paper.txt", "testdata/hetero.txt"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "cluster.txt"
		fuzzguard.Within(t, func() {
			c, err := clusterfile.Parse(bytes.NewReader(data), name)
			if err != nil {
				msg := err.Error()
				if !strings.HasPrefix(msg, name+":") || strings.ContainsAny(msg, "\r\n") {
					t.Fatalf("error %q is not one line beginning with the file", msg)
				}
				if !errors.Is(err, clusterfile.ErrCluster) {
					t.Fatalf("error %q does not wrap ErrCluster", msg)
				}
				return
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("Parse accepted a cluster that Validate refuses: %v", err)
			}
			if n := c.Nodes(); n < 1 || n > clusterfile.MaxNodes {
				t.Fatalf("%d nodes", n)
			}
			roundTrip(t, c)
		})
	})
}
