package swim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// Class is one bin of a profile: a range of map and reduce counts and how
// many of the paper's jobs fall in it.
type Class struct {
	Name  string // label written to the trace's class column
	Paper string // the paper's label for the bin (Table 1)
	Count int    // jobs in the paper's workload; the class's weight
	// Inclusive ranges of map and reduce tasks of the job's reference
	// shape (see ReferenceTasks).
	MinMaps, MaxMaps       int
	MinReduces, MaxReduces int
}

// Profile is one of the HFSP paper's workloads (Section 4.1, Table 1),
// generated from an embedded Model.
//
// The paper's bins are in task counts on its 100-node cluster, and they can
// only be reached from the samples' bytes unscaled (FB2010's "more than
// 2500 maps" would need over 9 PiB of input at SWIM's 100/3000 scale). So a
// profile classifies a drawn job by its reference shape: the model's bytes
// as they are, under the natural rule with 128 MiB blocks and 128 MiB per
// reduce (ReferenceTasks). The trace then holds the job scaled by
// nodes/original nodes, where a profile's original nodes default to 100, the
// paper's cluster: at --nodes 100 the bytes are the samples' own.
type Profile struct {
	Name          string
	Summary       string
	Model         *Model
	Jobs          int     // jobs in the paper's workload
	MeanGap       float64 // s, mean of the exponential inter-arrival times
	OriginalNodes int     // default original cluster size, see above
	// MinReduces raises the reduce count of jobs that have reduces; FB2010's
	// reduce counts "vary between 10 and" the cluster's reduce slots.
	MinReduces int
	Classes    []Class
}

// ReferenceTasks is the task rule on which profiles classify jobs.
var ReferenceTasks = TaskConfig{Rule: RuleNatural, BlockSize: DefaultBlockSize, BytesPerReduce: DefaultBytesPerReduce, Nodes: DefaultNodes}

// Caps that keep the profiles' largest jobs within hours of work on 100
// nodes (the samples hold jobs of up to 158,500 maps and 222,000 reduces):
// the top bins end at these counts.
const (
	MaxProfileMaps    = 5000
	MaxProfileReduces = 1000
)

var profiles = map[string]*Profile{
	"fb2009": {
		Name:          "fb2009",
		Summary:       "HFSP's FB2009: 100 jobs, exponential gaps of mean 13 s, 53 small / 41 medium / 6 big",
		Model:         modelFB2009,
		Jobs:          100,
		MeanGap:       13,
		OriginalNodes: DefaultNodes,
		Classes: []Class{
			{Name: "small", Paper: "select", Count: 53, MinMaps: 1, MaxMaps: 2, MinReduces: 0, MaxReduces: 0},
			{Name: "medium", Paper: "aggregate", Count: 41, MinMaps: 3, MaxMaps: 500, MinReduces: 0, MaxReduces: 500},
			{Name: "big", Paper: "transform", Count: 6, MinMaps: 501, MaxMaps: MaxProfileMaps, MinReduces: 0, MaxReduces: MaxProfileReduces},
		},
	},
	"fb2010": {
		Name:          "fb2010",
		Summary:       "HFSP's FB2010: 93 jobs without small ones, exponential gaps of mean 38 s, 401-5000 maps, 10-1000 reduces",
		Model:         modelFB2010,
		Jobs:          93,
		MeanGap:       38,
		OriginalNodes: DefaultNodes,
		MinReduces:    10,
		Classes: []Class{
			{Name: "401-1500 maps, 1-10 reduces", Paper: "expand", Count: 39, MinMaps: 401, MaxMaps: 1500, MinReduces: 1, MaxReduces: 10},
			{Name: "401-1500 maps, 11-100 reduces", Paper: "expand and transform", Count: 16, MinMaps: 401, MaxMaps: 1500, MinReduces: 11, MaxReduces: 100},
			{Name: "401-1500 maps, 101+ reduces", Paper: "transform", Count: 11, MinMaps: 401, MaxMaps: 1500, MinReduces: 101, MaxReduces: MaxProfileReduces},
			{Name: "1501-2500 maps, 1-100 reduces", Paper: "aggregate", Count: 10, MinMaps: 1501, MaxMaps: 2500, MinReduces: 1, MaxReduces: 100},
			{Name: "1501-2500 maps, 101+ reduces", Paper: "transform", Count: 7, MinMaps: 1501, MaxMaps: 2500, MinReduces: 101, MaxReduces: MaxProfileReduces},
			{Name: "2501+ maps, 101+ reduces", Paper: "transform", Count: 10, MinMaps: 2501, MaxMaps: MaxProfileMaps, MinReduces: 101, MaxReduces: MaxProfileReduces},
		},
	},
}

// ProfileNames returns the names of the profiles, sorted.
func ProfileNames() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LookupProfile returns the named profile.
func LookupProfile(name string) (*Profile, error) {
	if p, ok := profiles[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("unknown profile %q; want %s", name, strings.Join(ProfileNames(), " or "))
}

// Allocate splits n jobs over classes in proportion to their counts, by
// largest remainder (ties to the earlier class), so that the paper's own
// job count gives exactly the paper's counts.
func (p *Profile) Allocate(n int) []int {
	total := 0
	for _, c := range p.Classes {
		total += c.Count
	}
	out := make([]int, len(p.Classes))
	rem := make([]int, len(p.Classes))
	left := n
	for i, c := range p.Classes {
		out[i] = n * c.Count / total
		rem[i] = n * c.Count % total
		left -= out[i]
	}
	order := make([]int, len(p.Classes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for i := 0; i < left; i++ {
		out[order[i]]++
	}
	return out
}

// maxAttempts bounds the draws spent on one job of a class.
const maxAttempts = 1_000_000

// Draw returns a job of class c drawn from the profile's model: its input
// is drawn from the range that gives the class's map counts, and the draw
// is repeated until the reduce count fits too.
func (p *Profile) Draw(c *Class, rng *rand.Rand) (Sizes, error) {
	lo, hi := inputRange(c.MinMaps, c.MaxMaps)
	for range maxAttempts {
		s, ok := p.Model.DrawInput(lo, hi, rng)
		if !ok {
			break
		}
		sh := ReferenceTasks.Shape(s.Input, s.Shuffle, s.Output)
		if sh.Maps >= c.MinMaps && sh.Maps <= c.MaxMaps && sh.Reduces >= c.MinReduces && sh.Reduces <= c.MaxReduces {
			return s, nil
		}
	}
	return Sizes{}, fmt.Errorf("swim: profile %s: model %s almost never gives class %s (%d-%d maps, %d-%d reduces)",
		p.Name, p.Model.Name, c.Name, c.MinMaps, c.MaxMaps, c.MinReduces, c.MaxReduces)
}

// inputRange returns the input bytes whose reference map count lies in
// [minMaps, maxMaps].
func inputRange(minMaps, maxMaps int) (lo, hi int64) {
	b := ReferenceTasks.BlockSize
	if minMaps > 1 {
		lo = int64(minMaps-1)*b + 1
	}
	hi = math.MaxInt64
	if maxMaps < math.MaxInt64/int(b) {
		hi = int64(maxMaps) * b
	}
	return lo, hi
}

// ClassifyHFSP labels a job by the HFSP paper's FB2009 bins: "small" (at
// most 2 maps and no reduce), "big" (more than 500 maps) or "medium". It
// labels the jobs of SWIM files.
func ClassifyHFSP(maps, reduces int) string {
	switch {
	case maps <= 2 && reduces == 0:
		return "small"
	case maps > 500:
		return "big"
	}
	return "medium"
}
