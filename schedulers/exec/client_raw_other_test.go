//go:build !linux

package exec

import (
	"bufio"
	"os"
)

// answerEveryLine answers each line on standard input with answer until
// the input ends.
func answerEveryLine(in *bufio.Reader, answer string) {
	out := bufio.NewWriter(os.Stdout)
	for {
		if _, err := in.ReadSlice('\n'); err != nil {
			return
		}
		out.WriteString(answer + "\n")
		if out.Flush() != nil {
			return
		}
	}
}
