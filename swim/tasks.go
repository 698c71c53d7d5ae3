package swim

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// Sizes used throughout the package.
const (
	KiB = 1 << 10
	MiB = 1 << 20
	GiB = 1 << 30
)

// DefaultBlockSize is the HDFS block size of the HFSP paper's clusters
// (Section 4.1), and the default split size of the natural task rule.
const DefaultBlockSize = 128 * MiB

// DefaultBytesPerReduce is the default amount of data one reduce task
// handles. SWIM's documented example uses one block per reduce; so do we.
const DefaultBytesPerReduce = 128 * MiB

// minBlockSize is the smallest block size accepted: HDFS's own minimum
// (dfs.namenode.fs-limits.min-block-size) is 1 MiB.
const minBlockSize = 1 * MiB

// TaskRule turns a job's byte counts into task counts.
type TaskRule int

const (
	// RuleNatural: maps = max(1, ceil(input/block size)); no reduces when
	// the shuffle is 0 (SWIM's marker of a map-only job), otherwise
	// ceil(shuffle/bytes per reduce). Every map reads one block-sized split
	// except the last. This rule keeps the HFSP paper's "small" jobs
	// (<= 2 maps, no reduce).
	RuleNatural TaskRule = iota
	// RuleSWIM: SWIM's replay rules (GenerateReplayScript.java): input is
	// raised to at least P = MaxSeqFile(block size), the usable bytes of one
	// block-sized SequenceFile partition, and shuffle and output to at
	// least 1 KiB; maps = ceil(input/P), each reading one P-byte partition
	// except the last; reduces = round((shuffle+output)/bytes per reduce),
	// at least 1, and nodes/5 (integer division) when that exceeds the
	// number of nodes. SWIM never produces a map-only job.
	RuleSWIM
)

var ruleNames = [...]string{RuleNatural: "natural", RuleSWIM: "swim"}

func (r TaskRule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return fmt.Sprintf("TaskRule(%d)", int(r))
	}
	return ruleNames[r]
}

// ParseTaskRule accepts "natural" or "swim".
func ParseTaskRule(s string) (TaskRule, error) {
	for i, n := range ruleNames {
		if s == n {
			return TaskRule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown task rule %q; want %s", s, strings.Join(ruleNames[:], " or "))
}

// TaskConfig parameterizes a task rule.
type TaskConfig struct {
	Rule           TaskRule
	BlockSize      int64 // bytes; 0 means DefaultBlockSize
	BytesPerReduce int64 // bytes; 0 means DefaultBytesPerReduce
	Nodes          int   // target cluster size; RuleSWIM caps reduces with it
}

// Validate fills zero fields with their defaults and checks the rest. Its
// error names the bad field.
func (c *TaskConfig) Validate() error {
	if c.BlockSize == 0 {
		c.BlockSize = DefaultBlockSize
	}
	if c.BytesPerReduce == 0 {
		c.BytesPerReduce = DefaultBytesPerReduce
	}
	switch {
	case c.Rule != RuleNatural && c.Rule != RuleSWIM:
		return &ConfigError{"Tasks.Rule", fmt.Sprintf("%v; want natural or swim", c.Rule)}
	case c.BlockSize < minBlockSize:
		return &ConfigError{"Tasks.BlockSize", fmt.Sprintf("%d bytes; want at least %d (1 MiB, HDFS's minimum)", c.BlockSize, minBlockSize)}
	case c.BytesPerReduce < 1:
		return &ConfigError{"Tasks.BytesPerReduce", fmt.Sprintf("%d bytes; want at least 1", c.BytesPerReduce)}
	case c.Nodes < 1:
		return &ConfigError{"Tasks.Nodes", fmt.Sprintf("%d; want at least 1", c.Nodes)}
	}
	return nil
}

// Shape is a job as its tasks see it.
type Shape struct {
	// Bytes the job processes. RuleSWIM raises them to its floors; the
	// natural rule keeps them.
	InputBytes, ShuffleBytes, OutputBytes int64
	Maps, Reduces                         int
	// SplitBytes is the input of every map but the last, which reads
	// LastSplitBytes.
	SplitBytes, LastSplitBytes int64
}

// Shape applies the rule to a job's (already scaled) byte counts. c must
// be valid.
func (c *TaskConfig) Shape(input, shuffle, output int64) Shape {
	s := Shape{InputBytes: input, ShuffleBytes: shuffle, OutputBytes: output}
	if c.Rule == RuleSWIM {
		p := MaxSeqFile(c.BlockSize)
		s.InputBytes = max(input, p)
		s.ShuffleBytes = max(shuffle, 1024)
		s.OutputBytes = max(output, 1024)
		s.SplitBytes = p
		s.Maps = int(ceilDiv(s.InputBytes, p))
		r := math.Floor(float64(s.ShuffleBytes+s.OutputBytes)/float64(c.BytesPerReduce) + 0.5) // Java's Math.round
		s.Reduces = int(min(r, math.MaxInt32))
		if s.Reduces < 1 {
			s.Reduces = 1
		}
		if s.Reduces > c.Nodes {
			s.Reduces = c.Nodes / 5
		}
	} else {
		s.SplitBytes = c.BlockSize
		s.Maps = int(max(1, ceilDiv(input, c.BlockSize)))
		if shuffle > 0 {
			s.Reduces = int(ceilDiv(shuffle, c.BytesPerReduce))
		}
	}
	s.LastSplitBytes = s.InputBytes - int64(s.Maps-1)*s.SplitBytes
	if s.Maps == 1 {
		s.SplitBytes = s.InputBytes
	}
	return s
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// SequenceFile layout assumed by SWIM's input generator (HDFSWrite with
// randomwriter_conf.xsl): a header, records of 10+90 usable bytes that take
// 116 bytes serialized, and a sync marker after every stretch of at least
// 2000 bytes, which with 116-byte records means every 18 records.
const (
	seqHeader      = 96
	seqRecUsable   = 100
	seqRecBytes    = 116
	seqMarker      = 20
	seqMarkerEvery = (2000 + seqRecBytes - 1) / seqRecBytes * seqRecBytes // 2088 bytes
)

func seqFileBytes(records int64) int64 {
	body := seqHeader + records*seqRecBytes
	return body + body/seqMarkerEvery*seqMarker
}

// MaxSeqFile returns the usable bytes of the largest SequenceFile of SWIM's
// 100-byte records that fits in one block of the given size: P in SWIM's
// replay rules. For 64 MiB it is 57,303,500 bytes; for 128 MiB,
// 114,607,000.
func MaxSeqFile(block int64) int64 {
	lo, hi := int64(0), block/seqRecBytes+1 // seqFileBytes(hi) > block
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if seqFileBytes(mid) <= block {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo * seqRecUsable
}

// ScaleBytes returns b*target/original truncated toward zero, as SWIM
// scales a job to a cluster of target nodes (Java long arithmetic, but
// without overflow).
func ScaleBytes(b int64, target, original int) int64 {
	if b <= 0 || target == original {
		return b
	}
	hi, lo := bits.Mul64(uint64(b), uint64(target))
	if hi >= uint64(original) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(original))
	return int64(min(q, math.MaxInt64))
}
