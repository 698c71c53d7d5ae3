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

// task is the engine's record of one map or reduce, 64 bytes, a cache
// line: launches and ends touch one task each, in no order, so every byte
// costs cache misses. What only a suspended task needs, the bytes swapped
// out, is kept apart (Engine.swapBytes).
type task struct {
	state taskState
	// waiting marks a running or suspended reduce whose shuffle cannot end
	// yet because its job still has unfinished maps.
	waiting bool
	// swapped marks a suspended task whose memory was swapped out by a
	// later task on its node; resuming it costs the bytes swapped out
	// (Engine.swapBytes) over DiskBandwidth.
	swapped  bool
	loc      Locality // locality of the current attempt (maps)
	gen      int32    // attempt generation; bumped on every launch, kill, suspend and loss
	attempts int32    // launches so far
	// onNode is the node of the current attempt plus one, 0 if none, so
	// that a zeroed record is a task never launched (see recFor).
	onNode   int32
	segStart Time // start of the current segment
	// end is the end of the current segment's run if not waiting; once
	// the task is done, its finish time.
	end       Time
	runTime   Time // sum of the segments of the current attempt
	swapDelay Time // swap time paid at the start of the current segment
	// attemptStart is when the current attempt was launched.
	attemptStart Time
	remaining    Time // run time left, valid while waiting or suspended
}

// node is the node of the task's current attempt, -1 if none.
func (t *task) node() int32 { return t.onNode - 1 }

// job is the engine's record of one job of the trace. The fields policies
// read on every pass over the jobs (states and counts) come first, in one
// cache line.
type job struct {
	arrived, done   bool
	reducesEligible bool
	launchedOnce    bool
	// noInput marks a job whose maps read no input data (trace
	// map_input_bytes 0): they have no block, hence no locality.
	noInput bool
	rigid   bool // the trace's rigid flag, kept for the results
	// keepPlaced marks a job that let go of its placement once, when its
	// last map launched: if a map of it waits again, the placement made
	// anew stays past its last launch, not to be made once more for every
	// map killed or lost.
	keepPlaced bool
	prio       traces.Priority

	pending, running, suspended, finished [2]int32

	nmaps, nrd    int32
	slowStartMaps int32    // finished maps needed before reduces may launch
	anyNext       [2]int32 // next task index to look at when picking any pending task

	// recs holds the task records by kind, in chunks of chunkLen made
	// when one of their tasks first launches (see recFor): a job waiting
	// in a backlog, or one whose samples alone have run, costs a pointer
	// per chunk, not a record per task.
	recs [2][]*taskChunk
	tj   *traces.Job // nil before it is read from a Source, and after it finished
	// pk holds the task lists that tj let go of, from the job's arrival
	// in a run from a Source (packTasks); nil otherwise.
	pk *packedTasks
	// pendingMaps has bit t set while map t is pending: the locality
	// lookups test it instead of loading each task.
	pendingMaps []uint64
	replicas    []int32   // Replication entries per map: nodes holding its block
	index       *mapIndex // nil for a job of few maps (see indexedMaps)
	repend      [2][]int32

	submit, firstLaunch, mapsDone, eligibleAt, finish Time

	// The ApplicationMaster's node (-1 while it has none) and start, in
	// the container model.
	amNode  int32
	amStart Time
	idleAt  Time // when its maps last stopped running while some waited

	kills, suspensions, lost int32
	locality                 [3]int32 // finished maps by locality level (none for a job without input)

	// What the results need of tj, kept when it is let go.
	id          int64
	class, pool string
}

// count is the job's number of tasks of kind k.
func (j *job) count(k TaskKind) int32 {
	if k == Map {
		return j.nmaps
	}
	return j.nrd
}

// Task records come in chunks of chunkLen tasks.
const (
	chunkBits = 4
	chunkLen  = 1 << chunkBits
)

type taskChunk [chunkLen]task

// rec is the record of task t of kind k, which has launched (its chunk
// is made).
func (j *job) rec(k TaskKind, t int32) *task {
	return &j.recs[k][t>>chunkBits][t&(chunkLen-1)]
}

// peek is task t's record for reading: a shared record of a pending task
// where its chunk is not made (it never launched), of a done one once the
// job's records are released.
func (j *job) peek(k TaskKind, t int32) *task {
	if cs := j.recs[k]; cs != nil {
		if c := cs[t>>chunkBits]; c != nil {
			return &c[t&(chunkLen-1)]
		}
	}
	if j.done {
		return &releasedTask
	}
	return &unlaunchedTask
}

// node is one TaskTracker.
type node struct {
	alive    bool
	hbQueued bool // a heartbeat event is in the queue
	// dozing: the node would report at each of its grid times, but to a
	// policy that has said (Quieter) none of those reports can change
	// anything; it reports again when that no longer holds. To the
	// heartbeat bookkeeping it is a node with a heartbeat queued.
	dozing bool
	hbGen  int32 // generation of the queued heartbeat; older ones are stale
	fails  uint64
	nSusp  [2]int32 // suspended tasks by kind
	speed  float64
	// free counts the unit requests of each kind that fit in avail: free
	// slots in the slot model, minimum-size containers in the container
	// model.
	free       [2]int32
	capa       Resources // what the node offers
	avail      Resources // what is not allocated; may go negative on a resource the policy does not count
	ams        int32     // ApplicationMasters running on the node
	running    []TaskRef
	suspended  []TaskRef
	lastHB     Time
	phase      Time      // heartbeat offset within the interval
	unswapped  []TaskRef // suspended tasks whose memory is still resident
	busySince  Time      // last change of busy slot count, for the busy-time integral
	busySlots  int32
	busyIntegr Time
}

func (n *node) hasSuspended(k TaskKind) bool { return n.nSusp[k] > 0 }

func (j *job) mapPending(t int32) bool { return j.pendingMaps[t>>6]&(1<<(t&63)) != 0 }

// setTrace attaches job j's trace data.
func (j *job) setTrace(tj *traces.Job) {
	j.tj = tj
	j.submit = Seconds(tj.Submit)
	j.id, j.class, j.pool, j.prio = tj.ID, tj.Class, tj.Pool, tj.Priority
	j.nmaps, j.nrd = int32(tj.Maps()), int32(tj.Reduces())
	j.noInput = tj.MapInputBytes == 0
	j.rigid = tj.Rigid
}
