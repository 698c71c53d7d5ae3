package traces

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corruptions are the byte values written at each offset by
// TestEveryByteFlip, among them those that crashed or hung the Arrow
// library's reader before internal/arrowsafe (0x9f at 3372, 0x34 at 21566
// and 0x01 at 21181 of a 10-job fb2009 trace).
var corruptions = []func(b byte) byte{
	func(b byte) byte { return b ^ 0xff },
	func(b byte) byte { return b ^ 0x80 },
	func(b byte) byte { return 0x9f },
	func(b byte) byte { return 0x34 },
	func(b byte) byte { return 0x01 },
}

// TestEveryByteFlip: every single-byte corruption of a small trace is
// either read as a valid trace or refused with ErrNotTrace or another
// error, never a panic, a fatal out-of-memory or a hang (the test's
// deadline).
func TestEveryByteFlip(t *testing.T) {
	data := sampleBytes(t)
	n := 0
	for off := range data {
		for _, c := range corruptions {
			b := bytes.Clone(data)
			b[off] = c(b[off])
			if b[off] == data[off] {
				continue
			}
			n++
			if _, err := Decode(bytes.NewReader(b)); err == nil {
				// A flip in a value (a name, a duration) may still
				// give a valid trace.
				continue
			}
		}
	}
	t.Logf("%d corrupted files of %d bytes decoded without a crash", n, len(data))
}

// sampleBytes encodes sample() (every column, lists with and without
// elements, metadata) as a file.
func sampleBytes(t *testing.T) []byte {
	t.Helper()
	tr := sample()
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := Write(path, tr); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTimesBeyondTheClock: submit times and durations the replay's int64
// microsecond clock cannot hold are refused, naming the row and column.
func TestTimesBeyondTheClock(t *testing.T) {
	for _, c := range []struct {
		edit func(*Trace)
		want string
	}{
		{func(tr *Trace) { tr.Jobs[1].Submit = 9.3e12 }, "row 1, column submit_s: 9.3e+12 s is beyond the replay clock"},
		{func(tr *Trace) { tr.Jobs[0].MapDurations[0] = 1e13 }, "row 0, column map_durations_s: element 0 is 1e+13"},
		{func(tr *Trace) { tr.Jobs[1].ReduceDurations[1] = 9.3e12 }, "row 1, column reduce_durations_s: element 1 is 9.3e+12"},
	} {
		tr := sample()
		c.edit(tr)
		err := tr.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want %q", err, c.want)
		}
	}
}
