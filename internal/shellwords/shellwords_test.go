package shellwords

import (
	"fmt"
	"testing"
)

func TestSplit(t *testing.T) {
	for in, want := range map[string]string{
		`python3 my_policy.py`:          `[python3 my_policy.py]`,
		`  a  'b c' "d e" f\ g `:        `[a b c d e f g]`,
		`python3 -c "print('x y')" arg`: `[python3 -c print('x y') arg]`,
		`--shard "$ID/$N" --out "$OUT"`: `[--shard $ID/$N --out $OUT]`,
	} {
		got, err := Split(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("Split(%q) = %q, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{`"unclosed`, `'unclosed`, `trailing\`} {
		if _, err := Split(in); err == nil {
			t.Errorf("Split(%q) accepted", in)
		}
	}
}
