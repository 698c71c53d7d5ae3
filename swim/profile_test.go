package swim

import (
	"math"
	"reflect"
	"testing"

	"sojourn/traces"
)

// paperBin classifies a job by its task counts with the bins of the HFSP
// paper's Table 1, written out here independently of the profiles.
func paperBin(profile string, maps, reduces int) string {
	switch profile {
	case "fb2009":
		switch {
		case maps <= 2 && reduces == 0:
			return "small" // ≤ 2 maps, 0 reduces: "select"
		case maps > 2 && maps <= 500 && reduces <= 500:
			return "medium" // 2 < maps ≤ 500, ≤ 500 reduces: "aggregate"
		case maps > 500:
			return "big" // ≥ 500 maps: "transform"
		}
	case "fb2010":
		switch {
		case maps <= 1500 && reduces <= 10:
			return "401-1500 maps, 1-10 reduces"
		case maps <= 1500 && reduces <= 100:
			return "401-1500 maps, 11-100 reduces"
		case maps <= 1500:
			return "401-1500 maps, 101+ reduces"
		case maps <= 2500 && reduces <= 100:
			return "1501-2500 maps, 1-100 reduces"
		case maps <= 2500:
			return "1501-2500 maps, 101+ reduces"
		case reduces > 100:
			return "2501+ maps, 101+ reduces"
		}
	}
	return "none"
}

// Table 1 of the HFSP paper, as job counts (FB10's "%" column is really a
// count out of 93 jobs).
var table1 = map[string]map[string]int{
	"fb2009": {"small": 53, "medium": 41, "big": 6},
	"fb2010": {"401-1500 maps, 1-10 reduces": 39, "401-1500 maps, 11-100 reduces": 16, "401-1500 maps, 101+ reduces": 11, "1501-2500 maps, 1-100 reduces": 10, "1501-2500 maps, 101+ reduces": 7, "2501+ maps, 101+ reduces": 10},
}

func generate(t testing.TB, cfg Config) *traces.Trace {
	t.Helper()
	tr, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestProfilesMatchTable1: over 1,000 jobs on the paper's 100 nodes, the
// share of each of Table 1's bins, computed from the generated task
// counts, is within 5 points of the paper's, and the class column agrees
// with the bins; the mean gap is within 5% of Section 4.1's (13 s, 38 s).
func TestProfilesMatchTable1(t *testing.T) {
	for _, c := range []struct {
		profile string
		meanGap float64
	}{{"fb2009", 13}, {"fb2010", 38}} {
		t.Run(c.profile, func(t *testing.T) {
			tr := generate(t, Config{Profile: c.profile, Seed: 1, Jobs: 1000})
			counts := map[string]int{}
			for _, j := range tr.Jobs {
				bin := paperBin(c.profile, j.Maps(), j.Reduces())
				counts[bin]++
				if bin != j.Class {
					t.Errorf("job %d: %d maps, %d reduces is bin %s, labelled %s", j.ID, j.Maps(), j.Reduces(), bin, j.Class)
				}
			}
			total := 0
			for _, n := range table1[c.profile] {
				total += n
			}
			for bin, n := range table1[c.profile] {
				got, want := 100*float64(counts[bin])/1000, 100*float64(n)/float64(total)
				if math.Abs(got-want) > 5 {
					t.Errorf("bin %s: %.1f%% of jobs; Table 1 has %.1f%%", bin, got, want)
				}
			}
			if counts["none"] > 0 {
				t.Errorf("%d jobs fall in none of Table 1's bins", counts["none"])
			}
			gap := (tr.Jobs[len(tr.Jobs)-1].Submit - tr.Jobs[0].Submit) / float64(len(tr.Jobs)-1)
			if math.Abs(gap-c.meanGap) > 0.05*c.meanGap {
				t.Errorf("mean gap %.2f s; want %v s within 5%%", gap, c.meanGap)
			}
		})
	}
}

// TestProfileDefaultsAreThePaper: with their own job counts, the profiles
// give exactly Table 1's counts.
func TestProfileDefaultsAreThePaper(t *testing.T) {
	for profile, want := range table1 {
		tr := generate(t, Config{Profile: profile, Seed: 3})
		got := map[string]int{}
		for _, j := range tr.Jobs {
			got[paperBin(profile, j.Maps(), j.Reduces())]++
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: bins %v; want %v", profile, got, want)
		}
	}
}

// TestFB2010Ranges checks Section 4.1's description of FB2010 on 100 nodes
// (400 map slots, 200 reduce slots): map phases need several waves, and
// reduce counts run from 10 to beyond the reduce slots; and the caps.
func TestFB2010Ranges(t *testing.T) {
	tr := generate(t, Config{Profile: "fb2010", Seed: 1, Jobs: 1000})
	minMaps, maxMaps, minRed, maxRed := math.MaxInt, 0, math.MaxInt, 0
	for _, j := range tr.Jobs {
		minMaps, maxMaps = min(minMaps, j.Maps()), max(maxMaps, j.Maps())
		minRed, maxRed = min(minRed, j.Reduces()), max(maxRed, j.Reduces())
	}
	if minMaps <= 400 || maxMaps <= 2500 || maxMaps > MaxProfileMaps {
		t.Errorf("maps from %d to %d; want all above the 400 map slots, some above 2500, none above %d", minMaps, maxMaps, MaxProfileMaps)
	}
	if minRed != 10 || maxRed <= 200 || maxRed > MaxProfileReduces {
		t.Errorf("reduces from %d to %d; want from 10 to beyond the 200 reduce slots, at most %d", minRed, maxRed, MaxProfileReduces)
	}
}

func TestAllocate(t *testing.T) {
	p, _ := LookupProfile("fb2010")
	for n, want := range map[int][]int{
		93:   {39, 16, 11, 10, 7, 10},
		1000: {419, 172, 118, 108, 75, 108},
		1:    {1, 0, 0, 0, 0, 0},
	} {
		if got := p.Allocate(n); !reflect.DeepEqual(got, want) {
			t.Errorf("Allocate(%d) = %v; want %v", n, got, want)
		}
	}
	if _, err := LookupProfile("fb2011"); err == nil {
		t.Error("LookupProfile accepted fb2011")
	}
}
