// Package must holds the argument checks of the pure cores (virtual
// cluster, fair shares, fluid references): misuse is a programming error,
// reported by a panic that says what was wrong.
package must

import (
	"fmt"
	"math"
)

// NonNeg panics unless x is a number >= 0.
func NonNeg(what string, x float64) {
	if !(x >= 0) {
		panic(fmt.Sprintf("schedulers: %s %g; want >= 0", what, x))
	}
}

// Work panics unless work and c are numbers >= 0 and work is finite.
func Work(work, c float64) {
	NonNeg("work", work)
	NonNeg("cap", c)
	if math.IsInf(work, 1) {
		panic("schedulers: infinite work")
	}
}
