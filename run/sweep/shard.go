package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is the part of a sweep one process runs: the cells whose index
// is Index modulo Count. Interleaving spreads every workload and policy
// over the shards, so shards take about the same time. The zero value is
// the whole sweep.
type Shard struct {
	Index, Count int
}

// Owns reports whether cell i belongs to the shard.
func (s Shard) Owns(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

func (s Shard) String() string {
	if s.Count <= 1 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Environment variables that carry a shard index: a Kubernetes Indexed
// Job's completion index, and a Slurm job array's task id (offset by the
// array's first id, so that --array=1-4 works as well as 0-3).
const (
	EnvJobCompletionIndex = "JOB_COMPLETION_INDEX"
	EnvSlurmTaskID        = "SLURM_ARRAY_TASK_ID"
	EnvSlurmTaskMin       = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmTaskCount     = "SLURM_ARRAY_TASK_COUNT"
)

// ParseShard parses "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 <= i < n, e.g. 0/4", s)
	}
	return Shard{i, n}, nil
}

// ResolveShard decides the shard from the --shard flag (i/n), the
// --shards flag (n, 0 if unset) and the environment, read through getenv.
// With --shards, the index comes from JOB_COMPLETION_INDEX or else from
// SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN. With neither flag, a Slurm
// array task takes its shard from SLURM_ARRAY_TASK_COUNT and its id; a
// Kubernetes index without --shards is an error, since the count is not in
// the pod's environment. A Slurm array task resubmitted alone (an array of
// one task whose id is not 0), or a part of an array whose size is not
// --shards, is an error too: its shard is ambiguous, and --shard i/n says
// it. Otherwise the shard is the whole sweep.
func ResolveShard(flag string, shards int, getenv func(string) string) (Shard, error) {
	if flag != "" {
		s, err := ParseShard(flag)
		if err != nil {
			return s, err
		}
		if shards != 0 && shards != s.Count {
			return Shard{}, fmt.Errorf("--shard %s and --shards %d disagree", flag, shards)
		}
		return s, nil
	}
	if shards < 0 {
		return Shard{}, fmt.Errorf("--shards %d: want 1 or more", shards)
	}
	idx, src, err := envIndex(getenv)
	if err != nil {
		return Shard{}, err
	}
	if shards == 0 {
		switch {
		case src == "":
			return Shard{}, nil
		case src == EnvJobCompletionIndex:
			return Shard{}, fmt.Errorf("%s is set: give --shards N, the Job's completions", EnvJobCompletionIndex)
		}
		c := getenv(EnvSlurmTaskCount)
		n, err := strconv.Atoi(c)
		if err != nil || n < 1 {
			return Shard{}, fmt.Errorf("%s=%q: want the array's task count; or give --shards N", EnvSlurmTaskCount, c)
		}
		if id := getenv(EnvSlurmTaskID); n == 1 && id != "0" {
			// sbatch --array=3 resubmits task 3 alone: an array of one
			// task, which would otherwise run the whole sweep beside the
			// tasks still running.
			return Shard{}, fmt.Errorf("%s=%s in an array of one task (a task of a larger array resubmitted alone?): give --shard %s/N, N the array's size", EnvSlurmTaskID, id, id)
		}
		shards = n
	} else if src == EnvSlurmTaskID {
		if c := getenv(EnvSlurmTaskCount); c != "" && c != strconv.Itoa(shards) {
			// Part of an array (a resubmission of some tasks) does not
			// say which shards its tasks are once its first id moves.
			return Shard{}, fmt.Errorf("%s=%s but --shards %d: in part of an array the shard is ambiguous; give --shard %s/%d",
				EnvSlurmTaskCount, c, shards, getenv(EnvSlurmTaskID), shards)
		}
	}
	if src == "" {
		return Shard{}, fmt.Errorf("--shards %d: no shard index; give --shard i/%d or set %s or %s", shards, shards, EnvJobCompletionIndex, EnvSlurmTaskID)
	}
	if idx >= shards {
		return Shard{}, fmt.Errorf("%s gives shard %d; want 0 to %d for %d shards", src, idx, shards-1, shards)
	}
	return Shard{idx, shards}, nil
}

// envIndex reads the shard index from the environment; src names the
// variable it came from, "" if none is set.
func envIndex(getenv func(string) string) (idx int, src string, err error) {
	num := func(name string) (int, error) {
		v := getenv(name)
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s=%q: want a non-negative integer", name, v)
		}
		return n, nil
	}
	if getenv(EnvJobCompletionIndex) != "" {
		i, err := num(EnvJobCompletionIndex)
		return i, EnvJobCompletionIndex, err
	}
	if getenv(EnvSlurmTaskID) == "" {
		return 0, "", nil
	}
	i, err := num(EnvSlurmTaskID)
	if err != nil {
		return 0, "", err
	}
	lo := 0
	if getenv(EnvSlurmTaskMin) != "" {
		if lo, err = num(EnvSlurmTaskMin); err != nil {
			return 0, "", err
		}
	}
	if i < lo {
		return 0, "", fmt.Errorf("%s=%d is below %s=%d", EnvSlurmTaskID, i, EnvSlurmTaskMin, lo)
	}
	return i - lo, EnvSlurmTaskID, nil
}
