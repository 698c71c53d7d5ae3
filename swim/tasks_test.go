package swim

import (
	"math"
	"testing"
)

// TestMaxSeqFile checks P against swim.md's values and against the
// SequenceFile layout worked out by hand: for 64 MiB, 573,035 records take
// 96 + 116·573,035 = 66,472,156 bytes plus floor(66,472,156/2088) = 31,835
// markers of 20 bytes, 67,108,856 bytes in all, 8 bytes under the block;
// one record more would need 67,108,972.
func TestMaxSeqFile(t *testing.T) {
	for _, c := range []struct{ block, want int64 }{
		{64 * MiB, 57_303_500},
		{128 * MiB, 114_607_000},
	} {
		if got := MaxSeqFile(c.block); got != c.want {
			t.Errorf("MaxSeqFile(%d) = %d; want %d", c.block, got, c.want)
		}
	}
	if got := seqFileBytes(573_035); got != 67_108_856 {
		t.Errorf("seqFileBytes(573035) = %d; want 67108856", got)
	}
	if got := seqFileBytes(573_036); got != 67_108_972 {
		t.Errorf("seqFileBytes(573036) = %d; want 67108972", got)
	}
	if got := MaxSeqFile(95); got != 0 {
		t.Errorf("MaxSeqFile(95) = %d; want 0 (not even the header fits)", got)
	}
}

// TestSWIMRuleByHand replays SWIM's documented example, 600 machines down
// to 10 with 64 MiB blocks and 64 MiB per reduce, on jobs computed by hand.
func TestSWIMRuleByHand(t *testing.T) {
	c := TaskConfig{Rule: RuleSWIM, BlockSize: 64 * MiB, BytesPerReduce: 64 * MiB, Nodes: 10}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	const p = 57_303_500
	for _, k := range []struct {
		name        string
		in, sh, out int64 // on 600 machines
		want        Shape
		why         string
	}{
		{
			name: "small job floored to one partition",
			in:   599, sh: 0, out: 0,
			// 599·10/600 = 9 (truncated) < P, so input = P; shuffle and
			// output floored to 1024; (1024+1024)/64 MiB rounds to 0, raised to 1.
			want: Shape{InputBytes: p, ShuffleBytes: 1024, OutputBytes: 1024, Maps: 1, Reduces: 1, SplitBytes: p, LastSplitBytes: p},
		},
		{
			name: "two partitions",
			in:   6_000_000_000, sh: 1_200_000_000, out: 30_000,
			// input 100,000,000 → ceil(1e8/P) = 2 maps (1.745), the last reading
			// 1e8 − P = 42,696,500; shuffle 20,000,000, output 500 → 1024;
			// (20,001,024)/67,108,864 = 0.298 rounds to 0 → 1 reduce.
			want: Shape{InputBytes: 100_000_000, ShuffleBytes: 20_000_000, OutputBytes: 1024, Maps: 2, Reduces: 1, SplitBytes: p, LastSplitBytes: 42_696_500},
		},
		{
			name: "reduces rounded half up",
			in:   60 * p, sh: 60 * (5*64*MiB/2 - 1024), out: 0,
			// input 60·P·10/600 = P → 1 map; shuffle 167,771,136, output 1024:
			// 167,772,160/67,108,864 = 2.5 exactly, Java's Math.round gives 3.
			want: Shape{InputBytes: p, ShuffleBytes: 167_771_136, OutputBytes: 1024, Maps: 1, Reduces: 3, SplitBytes: p, LastSplitBytes: p},
		},
		{
			name: "more reduces than nodes become nodes/5",
			in:   0, sh: 60_000_000_000, out: 0,
			// shuffle 1e9: (1e9+1024)/64 MiB = 14.9 → 15 > 10 nodes → 10/5 = 2.
			want: Shape{InputBytes: p, ShuffleBytes: 1_000_000_000, OutputBytes: 1024, Maps: 1, Reduces: 2, SplitBytes: p, LastSplitBytes: p},
		},
	} {
		t.Run(k.name, func(t *testing.T) {
			got := c.Shape(ScaleBytes(k.in, 10, 600), ScaleBytes(k.sh, 10, 600), ScaleBytes(k.out, 10, 600))
			if got != k.want {
				t.Errorf("got  %+v\nwant %+v", got, k.want)
			}
		})
	}
}

func TestNaturalRule(t *testing.T) {
	c := TaskConfig{Nodes: 100}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	b := int64(128 * MiB)
	for _, k := range []struct {
		in, sh, out int64
		want        Shape
	}{
		{0, 0, 0, Shape{Maps: 1}},
		{1, 0, 5, Shape{InputBytes: 1, OutputBytes: 5, Maps: 1, SplitBytes: 1, LastSplitBytes: 1}},
		{2 * b, 1, 0, Shape{InputBytes: 2 * b, ShuffleBytes: 1, Maps: 2, Reduces: 1, SplitBytes: b, LastSplitBytes: b}},
		{2*b + 1, b + 1, 9, Shape{InputBytes: 2*b + 1, ShuffleBytes: b + 1, OutputBytes: 9, Maps: 3, Reduces: 2, SplitBytes: b, LastSplitBytes: 1}},
	} {
		if got := c.Shape(k.in, k.sh, k.out); got != k.want {
			t.Errorf("Shape(%d, %d, %d) = %+v; want %+v", k.in, k.sh, k.out, got, k.want)
		}
	}
}

func TestScaleBytes(t *testing.T) {
	for _, c := range []struct {
		b            int64
		target, orig int
		want         int64
	}{
		{599, 10, 600, 9},
		{600, 10, 600, 10},
		{7, 100, 100, 7},
		{math.MaxInt64 / 2, 3000, 100, math.MaxInt64}, // saturates instead of overflowing
		{math.MaxInt64, 100, 3000, math.MaxInt64 / 30},
	} {
		if got := ScaleBytes(c.b, c.target, c.orig); got != c.want {
			t.Errorf("ScaleBytes(%d, %d, %d) = %d; want %d", c.b, c.target, c.orig, got, c.want)
		}
	}
}

func TestTaskConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg   TaskConfig
		field string
	}{
		{TaskConfig{Rule: 7, Nodes: 1}, "Tasks.Rule"},
		{TaskConfig{BlockSize: 1000, Nodes: 1}, "Tasks.BlockSize"},
		{TaskConfig{BytesPerReduce: -1, Nodes: 1}, "Tasks.BytesPerReduce"},
		{TaskConfig{}, "Tasks.Nodes"},
	} {
		err := c.cfg.Validate()
		if ce, ok := err.(*ConfigError); !ok || ce.Field != c.field {
			t.Errorf("%+v: error %v; want one naming %s", c.cfg, err, c.field)
		}
	}
	if r, err := ParseTaskRule("swim"); err != nil || r != RuleSWIM {
		t.Errorf("ParseTaskRule(swim) = %v, %v", r, err)
	}
	if _, err := ParseTaskRule("SWIM!"); err == nil {
		t.Error("ParseTaskRule accepted SWIM!")
	}
}
