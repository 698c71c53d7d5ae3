package replay

import "sojourn/traces"

// taskState is where a task is in its life.
type taskState uint8

const (
	pending taskState = iota
	running
	suspended
	done
)

// task is the engine's record of one map or reduce.
type task struct {
	state taskState
	// waiting marks a running or suspended reduce whose shuffle cannot end
	// yet because its job still has unfinished maps.
	waiting bool
	// swapped marks a suspended task whose memory was swapped out by a
	// later task on its node; resuming it costs swapBytes/DiskBandwidth.
	swapped   bool
	loc       Locality // locality of the current attempt (maps)
	gen       int32    // attempt generation; bumped on every launch, kill, suspend and loss
	attempts  int32    // launches so far
	node      int32    // node of the current attempt, -1 if none
	slotPos   int32    // position in the node's running or suspended list
	work      Time     // full run time of the current attempt on its node (excluding swap)
	remaining Time     // run time left, valid while waiting or suspended
	segStart  Time     // start of the current segment
	end       Time     // end of the current segment's run, if not waiting
	swapBytes int64    // bytes swapped out while suspended
	swapDelay Time     // swap time paid at the start of the current segment
	// attemptStart is when the current attempt was launched; firstStart is
	// the first launch of the task; runTime sums the segments of the current
	// attempt.
	attemptStart Time
	firstStart   Time
	runTime      Time
	finish       Time
}

// job is the engine's record of one job of the trace.
type job struct {
	tj           *traces.Job
	arrived      bool
	done         bool
	launchedOnce bool
	maps         []task
	reduces      []task

	mapWork    []Time // per map: trace duration
	reduceWork []Time // per reduce: trace duration after the shuffle
	transfer   []Time // per reduce: shuffle transfer time

	pending, running, suspended, finished [2]int32

	slowStartMaps   int32 // finished maps needed before reduces may launch
	reducesEligible bool

	submit, firstLaunch, mapsDone, eligibleAt, finish Time

	kills, suspensions, lost int32
	locality                 [3]int32 // finished maps by locality level

	replicas []int32 // Replication entries per map: nodes holding its block
	byNode   localIndex
	byRack   localIndex
	anyNext  [2]int32 // next task index to look at when picking any pending task
	repend   [2][]int32
}

func (j *job) tasks(k TaskKind) []task {
	if k == Map {
		return j.maps
	}
	return j.reduces
}

// node is one TaskTracker.
type node struct {
	rack       int32
	alive      bool
	hbQueued   bool  // a heartbeat event is in the queue
	hbGen      int32 // generation of the queued heartbeat; older ones are stale
	fails      uint64
	nSusp      [2]int32 // suspended tasks by kind
	speed      float64
	free       [2]int32
	running    []TaskRef
	suspended  []TaskRef
	lastHB     Time
	phase      Time      // heartbeat offset within the interval
	unswapped  []TaskRef // suspended tasks whose memory is still resident
	busySince  Time      // last change of busy slot count, for the busy-time integral
	busySlots  int32
	busyIntegr Time
}

// localIndex groups task indices by a key (a node or a rack) in compressed
// rows: keys sorted, tasks of keys[i] at tasks[off[i]:off[i+1]], and cur[i]
// the next position to look at. Launched tasks are skipped lazily, so
// picking is amortized O(log keys).
type localIndex struct {
	keys  []int32
	off   []int32
	tasks []int32
	cur   []int32
}

// build fills the index from (key, task) pairs already sorted by key, then
// task.
func (ix *localIndex) build(pairs []uint64) {
	ix.keys, ix.off, ix.tasks = ix.keys[:0], ix.off[:0], ix.tasks[:0]
	last := int64(-1)
	for _, p := range pairs {
		k, t := int32(p>>32), int32(uint32(p))
		if int64(k) != last {
			ix.keys = append(ix.keys, k)
			ix.off = append(ix.off, int32(len(ix.tasks)))
			last = int64(k)
		}
		ix.tasks = append(ix.tasks, t)
	}
	ix.off = append(ix.off, int32(len(ix.tasks)))
	ix.cur = append(ix.cur[:0], ix.off[:len(ix.keys)]...)
}

// find returns the row of key, or -1.
func (ix *localIndex) find(key int32) int {
	lo, hi := 0, len(ix.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ix.keys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ix.keys) && ix.keys[lo] == key {
		return lo
	}
	return -1
}

// first returns the first pending task under key, or -1.
func (ix *localIndex) first(key int32, maps []task) int32 {
	r := ix.find(key)
	if r < 0 {
		return -1
	}
	c, end := ix.cur[r], ix.off[r+1]
	for c < end && maps[ix.tasks[c]].state != pending {
		c++
	}
	ix.cur[r] = c
	if c == end {
		return -1
	}
	return ix.tasks[c]
}

func (n *node) hasSuspended(k TaskKind) bool { return n.nSusp[k] > 0 }
