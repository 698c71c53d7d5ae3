package reports

import (
	"encoding/json"
	"math"
	"testing"
)

// A claim's value that could not be computed travels as null and comes
// back as NaN, never as 0.
func TestNumberNullForNaN(t *testing.T) {
	data, err := json.Marshal([]Number{1.5, Number(math.NaN()), Number(math.Inf(1))})
	if err != nil || string(data) != "[1.5,null,null]" {
		t.Fatalf("%s, %v", data, err)
	}
	var back []Number
	if err := json.Unmarshal(data, &back); err != nil || back[0] != 1.5 || !math.IsNaN(float64(back[1])) {
		t.Fatalf("%v, %v", back, err)
	}
}
