package replay

import (
	"fmt"
	"math"
)

// Time is simulated time in microseconds since the start of the workload.
type Time int64

// Second is one simulated second.
const Second Time = 1_000_000

// Never is a time later than any event.
const Never Time = math.MaxInt64

// Seconds converts a duration in seconds to Time, rounding to the nearest
// microsecond.
func Seconds(s float64) Time { return Time(math.Round(s * float64(Second))) }

// Sec returns t in seconds.
func (t Time) Sec() float64 { return float64(t) / float64(Second) }

func (t Time) String() string { return fmt.Sprintf("%.6fs", t.Sec()) }
