package easy

import (
	"bytes"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
)

// FuzzParsePassTimes: any bytes give passes in order or one error line
// naming the file, never a panic or a hang.
func FuzzParsePassTimes(f *testing.F) {
	f.Add([]byte("# slurmref passes\n0.541 backfill\n0.550 main\n1.550 backfill\n# 2 runs while a job was completing left out\n"))
	f.Add([]byte("2 main\n1 main\n"))
	f.Add([]byte("1e300 backfill\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			ps, err := parsePassTimes(bytes.NewReader(data), "passes.txt")
			if err != nil {
				if !strings.HasPrefix(err.Error(), "passes.txt") || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q is not one line starting with the file", err)
				}
				return
			}
			for i := 1; i < len(ps); i++ {
				if ps[i].at < ps[i-1].at {
					t.Fatalf("passes out of order: %v", ps)
				}
			}
		})
	})
}
