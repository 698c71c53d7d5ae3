package swim

import (
	"bytes"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
)

// FuzzParseTSV: any bytes give a source or a *ParseError-style error that
// names the file, never a panic or a hang; a source it returns has jobs
// in submit order with finite, non-negative values.
func FuzzParseTSV(f *testing.F) {
	f.Add([]byte("job0\t0\t0\t1048576\t0\t2048\n" +
		"job1\t12.5\t12.5\t268435456\t67108864\t1024\thdfs://in/a\thdfs://out/a\n" +
		"job2\t30\t17.5\t0\t0\t0\t\t\n"))
	f.Add([]byte("j\t1e3\t5\t10\t20\t30\r\n\r\nk\t1e3\t0\t1\t2\t3\n"))
	f.Add([]byte("a\t0\t0\t1\t1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			src, err := ParseTSV(bytes.NewReader(data), "w.tsv")
			if err != nil {
				if !strings.HasPrefix(err.Error(), "w.tsv:") {
					t.Fatalf("error %q does not start with the file", err)
				}
				return
			}
			prev := 0.0
			for i, r := range src.Records {
				if r.Submit < prev || r.Gap < 0 || r.InputBytes < 0 || r.ShuffleBytes < 0 || r.OutputBytes < 0 {
					t.Fatalf("record %d accepted: %+v", i, r)
				}
				prev = r.Submit
			}
		})
	})
}
