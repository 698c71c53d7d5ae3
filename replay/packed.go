package replay

import (
	"encoding/binary"
	"math"
	"math/bits"

	"sojourn/traces"
)

// packedTasks holds a waiting job's task lists in fewer bytes than its
// trace's float64 and int64 slices: on an overloaded cluster most jobs
// wait long after they arrived, and their task lists were most of a
// replay's memory. A duration that is a whole number of milliseconds (as
// generated and imported traces round them) is kept as that number, in
// as few bytes as the job's longest needs; shuffle bytes likewise. Every
// value reads back exactly as the trace gave it.
type packedTasks struct {
	// b holds the map durations, reduce durations and reduce shuffle
	// bytes in turn, each list w[l] bytes an entry, then 7 bytes of
	// padding so that any entry can be read as one 8-byte word.
	b    []byte
	off  [3]int32 // start of each list in b
	w    [3]uint8 // bytes per entry
	ms   [3]bool  // entries are milliseconds; else float64 bits (durations) or integers (bytes)
	n    [3]int32 // entries per list
	mask [3]uint64
}

// The lists of a packedTasks.
const (
	pkMaps = iota
	pkReduces
	pkShuffle
)

// packDurations chooses the encoding of durations d: milliseconds in w
// bytes when every one is a whole number of them, else float64 bits.
func packDurations(d []float64) (w uint8, ms bool) {
	var hi uint64
	for _, x := range d {
		m := uint64(x*1000 + 0.5)
		if x > 1<<52/1000 || float64(m)/1000 != x {
			return 8, false
		}
		hi = max(hi, m)
	}
	return widthOf(hi), true
}

// widthOf is the number of bytes that hold x, at least 1.
func widthOf(x uint64) uint8 {
	return uint8(max(1, (bits.Len64(x)+7)/8))
}

// pack packs tj's task lists.
func pack(tj *traces.Job) *packedTasks {
	p := &packedTasks{}
	p.w[pkMaps], p.ms[pkMaps] = packDurations(tj.MapDurations)
	p.w[pkReduces], p.ms[pkReduces] = packDurations(tj.ReduceDurations)
	var hi uint64
	for _, x := range tj.ReduceShuffleBytes {
		hi = max(hi, uint64(x))
	}
	p.w[pkShuffle] = widthOf(hi)
	p.n = [3]int32{int32(len(tj.MapDurations)), int32(len(tj.ReduceDurations)), int32(len(tj.ReduceShuffleBytes))}
	size := 0
	for l := range p.off {
		p.off[l] = int32(size)
		size += int(p.n[l]) * int(p.w[l])
		p.mask[l] = math.MaxUint64 >> (64 - 8*uint(p.w[l]))
	}
	p.b = make([]byte, size+7)
	for l, vals := range [2][]float64{tj.MapDurations, tj.ReduceDurations} {
		at := int(p.off[l])
		for _, x := range vals {
			v := math.Float64bits(x)
			if p.ms[l] {
				v = uint64(x*1000 + 0.5)
			}
			at = putWord(p.b, at, v, p.w[l])
		}
	}
	at := int(p.off[pkShuffle])
	for _, x := range tj.ReduceShuffleBytes {
		at = putWord(p.b, at, uint64(x), p.w[pkShuffle])
	}
	return p
}

// putWord writes the w low bytes of v at b[at:], little-endian, and
// returns the position after them.
func putWord(b []byte, at int, v uint64, w uint8) int {
	for k := range int(w) {
		b[at+k] = byte(v >> (8 * k))
	}
	return at + int(w)
}

// word is entry i of list l.
func (p *packedTasks) word(l int, i int32) uint64 {
	return binary.LittleEndian.Uint64(p.b[int(p.off[l])+int(i)*int(p.w[l]):]) & p.mask[l]
}

// duration is entry i of list l (pkMaps or pkReduces), in seconds.
func (p *packedTasks) duration(l int, i int32) float64 {
	if p.ms[l] {
		return float64(p.word(l, i)) / 1000
	}
	return math.Float64frombits(p.word(l, i))
}

// unpack gives tj its task lists back.
func (p *packedTasks) unpack(tj *traces.Job) {
	tj.MapDurations = make([]float64, p.n[pkMaps])
	for i := range tj.MapDurations {
		tj.MapDurations[i] = p.duration(pkMaps, int32(i))
	}
	tj.ReduceDurations = make([]float64, p.n[pkReduces])
	for i := range tj.ReduceDurations {
		tj.ReduceDurations[i] = p.duration(pkReduces, int32(i))
	}
	tj.ReduceShuffleBytes = make([]int64, p.n[pkShuffle])
	for i := range tj.ReduceShuffleBytes {
		tj.ReduceShuffleBytes[i] = int64(p.word(pkShuffle, int32(i)))
	}
}

// packDelay is how long after its submit a job keeps its task lists as
// the trace gave them: on a cluster that keeps up, most jobs finish
// sooner, and packing them would be work for nothing.
const packDelay = 300 * Second

// packWaiting notes that job ji was admitted and the policy has heard of
// it, and packs the task lists of the jobs submitted packDelay ago or
// earlier and not finished. It is for a run from a Source, whose trace
// records are the engine's own; JobView.Trace unpacks them for a policy
// that asks later.
func (e *Engine) packWaiting(ji int32) {
	e.toPack = append(e.toPack, ji)
	for len(e.toPack) > 0 {
		j := &e.jobs[e.toPack[0]]
		if j.submit+packDelay > e.now {
			break
		}
		e.toPack = e.toPack[1:]
		if !j.done && j.pk == nil {
			j.pk = pack(j.tj)
			j.tj.MapDurations, j.tj.ReduceDurations, j.tj.ReduceShuffleBytes = nil, nil, nil
		}
	}
}

// mapDuration is map t's duration in the trace.
func (j *job) mapDuration(t int32) float64 {
	if j.pk != nil {
		return j.pk.duration(pkMaps, t)
	}
	return j.tj.MapDurations[t]
}

// reduceDuration is reduce t's duration in the trace.
func (j *job) reduceDuration(t int32) float64 {
	if j.pk != nil {
		return j.pk.duration(pkReduces, t)
	}
	return j.tj.ReduceDurations[t]
}

// shuffleBytes is reduce t's shuffle input in the trace.
func (j *job) shuffleBytes(t int32) int64 {
	if j.pk != nil {
		return int64(j.pk.word(pkShuffle, t))
	}
	return j.tj.ReduceShuffleBytes[t]
}

// longestTask is the longest duration of the job's tasks in the trace.
func (j *job) longestTask() float64 {
	var longest float64
	for t := range j.nmaps {
		longest = max(longest, j.mapDuration(t))
	}
	for t := range j.nrd {
		longest = max(longest, j.reduceDuration(t))
	}
	return longest
}
