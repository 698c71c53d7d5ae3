// Package shellwords splits a command line into words the way a POSIX
// shell does for plain words and quotes, without expansion of any kind: the
// exec policy's command, and the command lines the tests read from the
// repository's job scripts.
package shellwords

import (
	"fmt"
	"strings"
)

// Split splits a command line into words at blanks; single or
// double quotes group words with blanks, and a backslash escapes the next
// character outside single quotes. No other shell syntax applies.
func Split(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	esc := false
	for _, r := range s {
		switch {
		case esc:
			w.WriteRune(r)
			esc = false
		case r == '\\' && quote != '\'':
			esc, inWord = true, true
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || esc {
		return nil, fmt.Errorf("unterminated quote or escape in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
