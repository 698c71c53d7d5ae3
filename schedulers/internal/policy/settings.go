package policy

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Settings holds the option values of one policy, as text. Its getters
// parse a value and, when it is not of the form asked for, record an error
// that names the option and what was expected, returning the zero value;
// only the first error is kept, so a constructor reads every option and
// asks Err once:
//
//	o.samples = s.Int("samples")
//	o.xi = s.Float("xi")
//	if err := s.Err(); err != nil {
//		return nil, err
//	}
type Settings struct {
	Policy string
	Values map[string]string
	err    error
}

// Err is the first error a getter met, nil if none.
func (s *Settings) Err() error { return s.err }

func (s *Settings) fail(name, format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("%s.%s: "+format, append([]any{s.Policy, name}, args...)...)
	}
}

// String returns option name as text, without surrounding space.
func (s *Settings) String(name string) string { return strings.TrimSpace(s.Values[name]) }

// MaxFloat and MaxInt bound every number option, whatever the policy:
// beyond them a time overflows the replay's microsecond clock or a count
// exhausts memory. Each policy checks its own narrower range.
const (
	MaxFloat = 1e12
	MaxInt   = 1 << 30
)

// Float returns option name as a finite number of magnitude at most
// MaxFloat; NaN and infinities are refused here, once for every policy.
func (s *Settings) Float(name string) float64 {
	v, err := strconv.ParseFloat(s.String(name), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		s.fail(name, "%q is not a number", s.Values[name])
		return 0
	}
	if err != nil || math.IsNaN(v) || math.Abs(v) > MaxFloat {
		s.fail(name, "%s; want a finite number from -%g to %g", s.String(name), MaxFloat, MaxFloat)
		return 0
	}
	return v
}

// Int returns option name as an integer of magnitude at most MaxInt.
func (s *Settings) Int(name string) int {
	v, err := strconv.ParseInt(s.String(name), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		s.fail(name, "%q is not an integer", s.Values[name])
		return 0
	}
	if err != nil || v < -MaxInt || v > MaxInt {
		s.fail(name, "%s; want an integer from %d to %d", s.String(name), -MaxInt, MaxInt)
		return 0
	}
	return int(v)
}

// Bool returns option name as a boolean.
func (s *Settings) Bool(name string) bool {
	v, err := strconv.ParseBool(s.String(name))
	if err != nil {
		s.fail(name, "%q is not true or false", s.Values[name])
	}
	return v
}

// Uint64 returns option name as a non-negative integer (a seed).
func (s *Settings) Uint64(name string) uint64 {
	v, err := strconv.ParseUint(s.String(name), 10, 64)
	if err != nil {
		s.fail(name, "%q is not a non-negative integer", s.String(name))
	}
	return v
}

// OneOf returns option name, which must be one of choices.
func (s *Settings) OneOf(name string, choices ...string) string {
	v := s.String(name)
	for _, c := range choices {
		if v == c {
			return v
		}
	}
	s.fail(name, "%q is not one of %s", v, strings.Join(choices, ", "))
	return ""
}

// StripComment is a configuration line without its '#' comment and the
// space around it; the policy configuration file and the capacity queues
// file share the syntax.
func StripComment(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}
