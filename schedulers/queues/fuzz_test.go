package queues

import (
	"bytes"
	"strings"
	"testing"

	"sojourn/internal/fuzzguard"
)

// FuzzParse: any bytes give queues or one error naming the file, never a
// panic or a hang.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`# production gets 70%, development 30%
root.prod.capacity = 70
yarn.scheduler.capacity.root.prod.user-limit-factor = 2
root.dev.capacity = 30
root.dev.maximum-capacity = 50
root.dev.adhoc.capacity = 40
root.dev.etl.capacity = 60
root.dev.etl.minimum-user-limit-percent = 25
`))
	f.Add([]byte("root.default.capacity = 100\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzguard.Within(t, func() {
			_, err := Parse(bytes.NewReader(data), "q.conf")
			if err != nil && (!strings.Contains(err.Error(), "q.conf") || strings.Contains(err.Error(), "\n")) {
				t.Fatalf("error %q is not one line naming the file", err)
			}
		})
	})
}
