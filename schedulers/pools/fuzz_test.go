package pools_test

import (
	"bytes"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
	"sojourn/schedulers/pools"
)

// FuzzParse: any bytes, read as an XML allocation file or as the text
// format, give pools or one error naming the file, never a panic or a
// hang.
func FuzzParse(f *testing.F) {
	f.Add([]byte(allocXML), true)
	f.Add([]byte("# pool mode weight minMaps minReduces\nresearch fifo 2.0 5 2\nadhoc fair 0.5 0 0\n"), false)
	f.Add([]byte("<allocations><pool name=\"a\"><weight>1</weight></pool></allocations>"), true)
	f.Fuzz(func(t *testing.T, data []byte, xml bool) {
		name := "pools.txt"
		if xml {
			name = "pools.xml"
		}
		fuzzguard.Within(t, func() {
			_, err := pools.Parse(bytes.NewReader(data), name)
			if err != nil && (!strings.HasPrefix(err.Error(), name) || strings.Contains(err.Error(), "\n")) {
				t.Fatalf("error %q is not one line starting with the file", err)
			}
		})
	})
}
