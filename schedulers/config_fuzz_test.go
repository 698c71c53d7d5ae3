package schedulers

import (
	"bytes"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
)

// FuzzParseConfig: any bytes give options or one error naming the file
// and, for a bad line, the line, never a panic or a hang.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("# FAIR with preemption\nfair.preemption = true\nfair.locality-delay = 5 # seconds\n\nhfsp.xi = 1.5\n"))
	f.Add([]byte("fifo.x = 1\n"))
	f.Add([]byte("fair.preemption = true\nfair.preemption = false\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			cfg, err := ParseConfig(bytes.NewReader(data), "p.conf")
			if err != nil {
				if !strings.HasPrefix(err.Error(), "p.conf:") || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %q is not one line starting with p.conf:", err)
				}
				return
			}
			for pol, opts := range cfg {
				p, err := Lookup(pol)
				if err != nil {
					t.Fatalf("accepted unknown policy %q", pol)
				}
				for o := range opts {
					if !p.HasOption(o) {
						t.Fatalf("accepted unknown option %s.%s", pol, o)
					}
				}
			}
		})
	})
}
