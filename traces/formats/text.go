package formats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxLine bounds a line of every text format an importer reads (and a
// CSV row, whose quoted fields may span lines), so that a file without
// newlines (/dev/zero) is refused instead of filling memory.
const MaxLine = 1 << 20

// maxQuoted bounds the bytes of a value an error message quotes.
const maxQuoted = 100

// quote is strconv.Quote of at most maxQuoted bytes of s, saying how long
// s was when it is cut.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// textReader hands out the bytes of a text file line by line, refusing a
// line longer than MaxLine and bytes that are not UTF-8, with the line
// and column (in bytes, from 1) of the first bad byte. In csv mode it
// also bounds a row: lines joined by a quoted field.
type textReader struct {
	name    string
	br      *bufio.Reader
	line    int // lines handed out so far
	rest    []byte
	csv     bool
	inQuote bool
	row     int // bytes of the current CSV row
	err     error
}

func newTextReader(r io.Reader, name string, csv bool) *textReader {
	return &textReader{name: name, br: bufio.NewReaderSize(r, MaxLine+1), csv: csv}
}

func (t *textReader) Read(p []byte) (int, error) {
	for len(t.rest) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		t.next()
	}
	n := copy(p, t.rest)
	t.rest = t.rest[n:]
	return n, nil
}

// next reads the next line into rest, or sets err.
func (t *textReader) next() {
	line, err := t.br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		t.err = &Error{File: t.name, Line: t.line + 1, Msg: fmt.Sprintf("a line longer than %d bytes (1 MiB); want a text file of lines", MaxLine)}
		return
	case err != nil && len(line) == 0:
		t.err = err
		return
	case err != nil && !errors.Is(err, io.EOF):
		t.err = err
	case err != nil:
		t.err = io.EOF
	}
	t.line++
	if !utf8.Valid(line) {
		col := 0
		for col < len(line) {
			r, n := utf8.DecodeRune(line[col:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			col += n
		}
		t.err = &Error{File: t.name, Line: t.line, Msg: fmt.Sprintf("column %d: byte 0x%02x is not UTF-8; want UTF-8 text", col+1, line[col])}
		return
	}
	if t.csv {
		for _, c := range line {
			if c == '"' {
				t.inQuote = !t.inQuote
			}
		}
		t.row += len(line)
		if t.row > MaxLine {
			t.err = &Error{File: t.name, Line: t.line, Msg: fmt.Sprintf("a row longer than %d bytes (1 MiB), a quoted field spanning lines; want rows of at most 1 MiB", MaxLine)}
			return
		}
		if !t.inQuote {
			t.row = 0
		}
	}
	// ReadSlice's buffer is reused by the next call: rest is consumed first.
	t.rest = line
}
