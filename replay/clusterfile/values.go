package clusterfile

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// reserved are the names an extra resource type may not take: the keys of
// a node line.
var reserved = []string{"memory", "vcores", "map-slots", "reduce-slots", "speed", "count", "rack", "name"}

const (
	wantSize  = "want a size in MiB, or with a MiB/GiB/TiB suffix"
	wantName  = "want printable ASCII without spaces, '#' or '='"
	wantSpeed = "want a number from 0.001 to 1000"
)

// parseInt parses a decimal integer of digits only, in [lo, hi]; ok is
// false otherwise.
func parseInt(s string, lo, hi int64) (int64, bool) {
	if s == "" || len(s) > 19 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, false
	}
	return v, true
}

func wantInt(lo, hi int64) string {
	return fmt.Sprintf("want an integer from %d to %d", lo, hi)
}

// parseSize parses a memory size: a decimal number, optionally with a
// fraction, then an optional case-insensitive unit MiB, GiB or TiB (none
// means MiB). The result is in MiB and must be whole; msg says what was
// wanted if it is not a valid size.
func parseSize(s string) (mb int64, msg string) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.ToLower(s[i:])
	var mult int64
	switch unit {
	case "", "mib":
		mult = 1
	case "gib":
		mult = 1 << 10
	case "tib":
		mult = 1 << 20
	default:
		return 0, wantSize
	}
	// Digits, then at most one point followed by digits; at most 40 of
	// them, far more than any valid size needs.
	whole, frac, hasPoint := strings.Cut(num, ".")
	if whole == "" || hasPoint && frac == "" || strings.Contains(frac, ".") || len(num) > 40 {
		return 0, wantSize
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, wantSize
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	if !r.IsInt() {
		return 0, "want a whole number of MiB"
	}
	n := r.Num()
	if n.Sign() <= 0 || n.Cmp(big.NewInt(MaxMemoryMB)) > 0 {
		return 0, fmt.Sprintf("want 1 MiB to %d TiB", MaxMemoryMB>>20)
	}
	return n.Int64(), ""
}

// formatSize writes mb in the largest unit that keeps it whole.
func formatSize(mb int64) string {
	switch {
	case mb%(1<<20) == 0:
		return strconv.FormatInt(mb>>20, 10) + "TiB"
	case mb%(1<<10) == 0:
		return strconv.FormatInt(mb>>10, 10) + "GiB"
	}
	return strconv.FormatInt(mb, 10) + "MiB"
}

// parseSpeed parses a relative speed: a finite decimal number (an
// exponent allowed) from MinSpeed to MaxSpeed. NaN, Inf and hexadecimal
// are refused.
func parseSpeed(s string) (float64, bool) {
	if s == "" || len(s) > 64 || strings.Trim(s, "0123456789.eE+-") != "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || !(v >= MinSpeed) || v > MaxSpeed {
		return 0, false
	}
	return v, true
}

func formatSpeed(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// checkName returns what is wrong with a rack or node name, or "".
func checkName(s string) string {
	if s == "" || len(s) > MaxNameBytes {
		return fmt.Sprintf("want 1 to %d characters", MaxNameBytes)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || c == '#' || c == '=' {
			return wantName
		}
	}
	return ""
}

// checkResourceName returns what is wrong with an extra resource type's
// name, or "".
func checkResourceName(s string) string {
	ok := s != "" && len(s) <= 64 && s[0] >= 'a' && s[0] <= 'z'
	for i := 0; ok && i < len(s); i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
	}
	if !ok {
		return "want a lower-case name [a-z][a-z0-9-]* of at most 64 characters"
	}
	for _, r := range reserved {
		if s == r {
			return "want a name other than " + strings.Join(reserved, ", ")
		}
	}
	return ""
}
