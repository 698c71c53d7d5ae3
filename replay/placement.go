package replay

import (
	"math"
	mbits "math/bits"
	"slices"
)

// indexedMaps is the number of maps above which a job gets locality
// indexes. A smaller job's replicas are few enough to scan on every
// request, which is cheaper than building the indexes.
const indexedMaps = 16

// prepareJob admits a job: its counters and its bitmap of pending maps.
// Its task records and block placement wait until something needs them
// (recFor, placed): on an overloaded cluster most jobs wait long before
// their first launch, and a replay of 100,000 such jobs would otherwise
// hold every task of every waiting job in memory. Both are what they would
// have been at arrival: a task record starts pending, and the placement's
// draws depend only on the seed and the job's index.
func (e *Engine) prepareJob(j *job) {
	nm, nr := j.nmaps, j.nrd
	j.arrived = true
	j.pendingMaps = e.bitSlabs.get(int(nm+63) / 64)
	for i := range j.pendingMaps {
		j.pendingMaps[i] = ^uint64(0)
	}
	if r := nm % 64; r != 0 {
		j.pendingMaps[len(j.pendingMaps)-1] = 1<<r - 1
	}
	j.pending = [2]int32{nm, nr}
	j.slowStartMaps = int32(math.Ceil(e.cfg.SlowStart * float64(nm)))
	e.addDemand(Map, nm)
	if nr > 0 && j.slowStartMaps == 0 && (e.model == SlotModel || nm == 0) {
		e.makeEligible(j)
	}
}

// recFor returns the record of task t of kind k of an arrived job,
// making its chunk (zeroed: pending tasks) the first time.
func (e *Engine) recFor(j *job, k TaskKind, t int32) *task {
	cs := j.recs[k]
	if cs == nil {
		cs = e.chunkSlabs.getZeroed(int(j.count(k)+chunkLen-1) >> chunkBits)
		j.recs[k] = cs
	}
	c := cs[t>>chunkBits]
	if c == nil {
		if n := len(e.freeChunks); n > 0 {
			c = e.freeChunks[n-1]
			e.freeChunks = e.freeChunks[:n-1]
			*c = taskChunk{}
		} else {
			c = new(taskChunk)
		}
		cs[t>>chunkBits] = c
	}
	return &c[t&(chunkLen-1)]
}

// placed returns the replicas of job ji's maps, placing its blocks the
// first time; nil for a job not arrived or finished, and for a job whose
// maps read no input (it has no blocks to place).
func (e *Engine) placed(ji int32, j *job) []int32 {
	if j.replicas == nil && j.nmaps > 0 && j.arrived && !j.done && !j.noInput {
		e.placeBlocks(ji, j)
	}
	return j.replicas
}

// release drops a finished job's per-task state, for reuse by later
// jobs; only its counters and times remain, for the results.
func (e *Engine) release(j *job) {
	for k := range j.recs {
		for _, c := range j.recs[k] {
			if c != nil {
				e.freeChunks = append(e.freeChunks, c)
			}
		}
		clear(j.recs[k])
		e.chunkSlabs.put(j.recs[k])
		j.recs[k] = nil
	}
	e.bitSlabs.put(j.pendingMaps)
	j.pendingMaps = nil
	e.unplace(j)
	j.repend = [2][]int32{}
}

// idlePlacement is how long a job keeps its placement while none of its
// maps runs and some wait: a backlog's jobs then hold none, whether a
// policy ran samples of them or not, while a job served a map at a time
// keeps its own rather than make it again and again.
const idlePlacement = 3600 * Second

// noteIdle records, after a map of job ji ended, that the job holds a
// placement and no running map while some wait, and lets go of the
// placements of the jobs idle since idlePlacement ago and ever since.
func (e *Engine) noteIdle(ji int32, j *job) {
	if j.running[Map] == 0 && j.suspended[Map] == 0 && j.pending[Map] > 0 && j.replicas != nil {
		j.idleAt = e.now
		e.idleJobs = append(e.idleJobs, idleJob{ji, e.now})
	}
	for len(e.idleJobs) > 0 && e.idleJobs[0].at+idlePlacement <= e.now {
		x := e.idleJobs[0]
		e.idleJobs = e.idleJobs[1:]
		if k := &e.jobs[x.job]; !k.done && k.idleAt == x.at && k.running[Map] == 0 && k.suspended[Map] == 0 {
			e.unplace(k)
		}
	}
	if len(e.idleJobs) == 0 {
		e.idleJobs = e.idleJobs[:0:0] // let the drained array go
	}
}

// idleJob is a job that had no map running from time at on.
type idleJob struct {
	job int32
	at  Time
}

// unplace lets go of job j's block placement and locality indexes, as it
// finishes, once its last map launched (Launch: in a busy replay many jobs
// in flight have only reduces left to run) or after it waited idle
// (noteIdle). A running map's locality is fixed at its launch, so only a
// map pending again needs them back. placed makes them again, the same:
// the draws depend only on the seed and the job's index, and an index
// made afresh gives the first pending map of a row as the old one did
// (the maps pending again that the old one's cursor had passed are in
// repend, which PendingMap asks first, and a row holds only maps as local
// as the row's place).
func (e *Engine) unplace(j *job) {
	e.int32Slabs.put(j.replicas)
	if j.index != nil {
		e.int32Slabs.put(j.index.buf)
		if j.index.rackBuf != nil {
			e.int32Slabs.put(j.index.rackBuf)
		}
	}
	j.replicas, j.index = nil, nil
}

// mapWork is map t's run time at reference speed on local data.
func (j *job) mapWork(t int32) Time { return Seconds(j.mapDuration(t)) }

// reduceWork is reduce t's run time at reference speed after its shuffle.
func (j *job) reduceWork(t int32) Time { return Seconds(j.reduceDuration(t)) }

// transfer is reduce t's shuffle transfer time: its bytes over its share
// of the node's shuffle bandwidth.
func (e *Engine) transfer(j *job, t int32) Time {
	return Seconds(float64(j.shuffleBytes(t)) / (e.cfg.ShuffleBandwidth / float64(e.cfg.ReduceSlots)))
}

// placeBlocks draws the nodes holding each map's block the way HDFS places
// a file written from outside the cluster: the first replica on a random
// node, the second on a node of another rack, the third on another node of
// the second's rack. The draw depends only on the seed and the job's
// index, so a trace replays identically whatever else changes.
//
// With three replicas and more than one rack, the usual case, the blocks
// are counted for the node index as they are drawn, the counting's memory
// traffic overlapping the stream's arithmetic. The rack index waits for
// its first question (localIndex.first): a policy that asks for
// node-local maps, or that samples a job and lets it wait, may never ask.
func (e *Engine) placeBlocks(ji int32, j *job) {
	nm := int(j.nmaps)
	rng := &e.blocks
	rng.seed(e.cfg.Seed, uint64(ji)+1)
	reps := e.int32Slabs.get(nm * e.rf)
	j.replicas = reps
	indexed := nm > indexedMaps
	switch {
	case e.racks == 1:
		e.placeOneRack(reps, indexed)
		if indexed {
			e.buildIndexes(j)
		}
		return
	case e.rf != 3:
		for base := 0; base+e.rf <= len(reps); base += e.rf {
			e.placeBlock(reps[base:base+e.rf], 0)
		}
		if indexed {
			e.countNodes(reps)
			e.buildIndexes(j)
		}
		return
	}
	nodes, racks := int32(e.cfg.Nodes), int32(e.racks)
	rackOf, rackLo := e.rackOf, e.rackLo
	cn, un := e.cntNode, e.usedNode[:0]
	// Each draw is rng.int32n inline: the stream's next number, its
	// usual bounded draw, and the rest of the draw where that fails.
	st := e.blocks
	var x uint64
	for base := 0; base+3 <= len(reps); base += 3 {
		m := reps[base : base+3 : base+3]
		st, x = st.next()
		first, ok := bounded(x, nodes)
		if !ok {
			first, st = st.rest(x, nodes)
		}
		r1 := rackOf[first]
		r2 := r1
		for r2 == r1 {
			st, x = st.next()
			if r2, ok = bounded(x, racks); !ok {
				r2, st = st.rest(x, racks)
			}
		}
		lo := rackLo[r2]
		size := rackLo[r2+1] - lo
		st, x = st.next()
		second, ok := bounded(x, size)
		if !ok {
			second, st = st.rest(x, size)
		}
		third := second
		for third == second {
			st, x = st.next()
			if third, ok = bounded(x, size); !ok {
				third, st = st.rest(x, size)
			}
			if size == 1 {
				break
			}
		}
		m[0], m[1], m[2] = first, lo+second, lo+third
		if third == second {
			// r2 has no node left for the third: it spreads elsewhere.
			e.blocks = st
			e.placeBlock(m, 2)
			st = e.blocks
		}
		if !indexed {
			continue
		}
		un = countKey(cn, un, m[0])
		un = countKey(cn, un, m[1])
		un = countKey(cn, un, m[2])
	}
	e.blocks, e.usedNode = st, un
	if indexed {
		e.buildIndexes(j)
	}
}

// countKey counts one more pair under key k, noting k in used the first
// time, and returns used.
func countKey(cnt, used []int32, k int32) []int32 {
	if cnt[k] == 0 {
		used = append(used, k)
	}
	cnt[k]++
	return used
}

// placeBlock draws the replicas of one block the general way, for any
// replication and racks: all of them (c = 0), or those from the c-th on
// after the second rack has filled up with the first c (placeBlocks).
func (e *Engine) placeBlock(m []int32, c int) {
	rng := &e.blocks
	nodes, racks := int32(e.cfg.Nodes), int32(e.racks)
	var r2 int32
	if c == 0 {
		first := rng.int32n(nodes)
		m[0] = first
		if len(m) == 1 {
			return
		}
		r2 = e.rackOf[first]
		if racks > 1 {
			for r1 := r2; r2 == r1; {
				r2 = rng.int32n(racks)
			}
		}
		c = 1
	} else {
		r2 = rng.int32n(racks) // as below: the rack has no node left
	}
	for c < len(m) {
		var cand int32
		if c < 3 {
			lo, hi := e.rackLo[r2], e.rackLo[r2+1]
			cand = lo + rng.int32n(hi-lo)
		} else {
			cand = rng.int32n(nodes)
		}
		if !slices.Contains(m[:c], cand) {
			m[c] = cand
			c++
		} else if e.rackFull(m[:c], r2) {
			r2 = rng.int32n(racks) // the rack has no node left: spread elsewhere
		}
	}
}

// placeOneRack places the blocks on a cluster of one rack: every
// replica is drawn from all the nodes (the second rack is the first's,
// the only one, and spans them all) until it is on a node not chosen yet
// (the rack never fills up: a block has at most as many replicas as there
// are nodes). It counts the maps of each node of an indexed job.
func (e *Engine) placeOneRack(reps []int32, indexed bool) {
	st := e.blocks // as in placeBlocks: rng.int32n inline
	rf, nodes := e.rf, int32(e.cfg.Nodes)
	cn, un := e.cntNode, e.usedNode[:0]
	for base := 0; base+rf <= len(reps); base += rf {
		m := reps[base : base+rf : base+rf]
		for c := 0; c < rf; {
			var x uint64
			st, x = st.next()
			cand, ok := bounded(x, nodes)
			if !ok {
				cand, st = st.rest(x, nodes)
			}
			if !slices.Contains(m[:c], cand) {
				m[c] = cand
				c++
			}
		}
		if !indexed {
			continue
		}
		for _, nd := range m {
			un = countKey(cn, un, nd)
		}
	}
	e.blocks, e.usedNode = st, un
}

// rackFull reports whether the distinct nodes chosen fill rack.
func (e *Engine) rackFull(chosen []int32, rack int32) bool {
	lo, hi := e.rackLo[rack], e.rackLo[rack+1]
	in := int32(0)
	for _, n := range chosen {
		if lo <= n && n < hi {
			in++
		}
	}
	return in == hi-lo
}

// countNodes counts, into the engine's scratch counters, the maps of each
// node holding their blocks.
func (e *Engine) countNodes(reps []int32) {
	cn, un := e.cntNode, e.usedNode[:0]
	for _, nd := range reps {
		un = countKey(cn, un, nd)
	}
	e.usedNode = un
}

// onRack reports whether a node of m is on rack rk.
func onRack(m []int32, rk int32, rackOf []int32) bool {
	for _, nd := range m {
		if rackOf[nd] == rk {
			return true
		}
	}
	return false
}

// buildIndexes groups a job's maps by the nodes holding their blocks,
// with a counting sort over the engine's scratch counters, which hold
// each node's maps (placeBlocks counts them). The rack index is made on
// its first question (buildRackIndex).
func (e *Engine) buildIndexes(j *job) {
	rf := e.rf
	reps := j.replicas
	cn := e.cntNode
	un := sortKeys(e.usedNode, cn)
	nn := len(e.nodes)
	buf := e.int32Slabs.get(indexLen(len(un), nn, len(reps)))
	ix := &mapIndex{buf: buf}
	ix.byRack.lazy = e
	j.index = ix
	ix.byNode.carve(buf, un, cn, len(reps), nn)
	// Place the maps in task order: cn now holds each node's next
	// position, and ends at each node's end.
	nt := ix.byNode.tasks
	if rf == 3 {
		for t := range int32(len(reps) / 3) {
			m := reps[3*t : 3*t+3 : 3*t+3]
			a, b, c := m[0], m[1], m[2]
			nt[cn[a]] = t
			cn[a]++
			nt[cn[b]] = t
			cn[b]++
			nt[cn[c]] = t
			cn[c]++
		}
	} else {
		for p, nd := range reps {
			nt[cn[nd]] = int32(p / rf)
			cn[nd]++
		}
	}
	for _, k := range un {
		cn[k] = 0
	}
	e.usedNode = un
}

// buildRackIndex makes job j's rack index, on its first question: a
// counting sort of the maps by the racks holding their blocks, a map
// once per rack. Made afresh, it gives the first pending map of a rack as
// one made with the placement would (see unplace).
func (e *Engine) buildRackIndex(j *job) {
	rf, reps, rackOf := e.rf, j.replicas, e.rackOf
	cr, ur := e.cntRack, e.usedRack[:0]
	pairs := 0
	if rf == 3 {
		for base := 0; base+3 <= len(reps); base += 3 {
			m := reps[base : base+3 : base+3]
			ra, rb, rc := rackOf[m[0]], rackOf[m[1]], rackOf[m[2]]
			ur = countKey(cr, ur, ra)
			pairs++
			if rb != ra {
				ur = countKey(cr, ur, rb)
				pairs++
			}
			if rc != ra && rc != rb {
				ur = countKey(cr, ur, rc)
				pairs++
			}
		}
	} else {
		for base := 0; base+rf <= len(reps); base += rf {
			m := reps[base : base+rf]
			for i, nd := range m {
				if rk := rackOf[nd]; !onRack(m[:i], rk, rackOf) {
					ur = countKey(cr, ur, rk)
					pairs++
				}
			}
		}
	}
	ur = sortKeys(ur, cr)
	buf := e.int32Slabs.get(indexLen(len(ur), e.racks, pairs))
	ix := &j.index.byRack
	j.index.rackBuf = buf
	ix.carve(buf, ur, cr, pairs, e.racks)
	rt := ix.tasks
	if rf == 3 {
		for t := range int32(len(reps) / 3) {
			m := reps[3*t : 3*t+3 : 3*t+3]
			ra, rb, rc := rackOf[m[0]], rackOf[m[1]], rackOf[m[2]]
			rt[cr[ra]] = t
			cr[ra]++
			if rb != ra {
				rt[cr[rb]] = t
				cr[rb]++
			}
			if rc != ra && rc != rb {
				rt[cr[rc]] = t
				cr[rc]++
			}
		}
	} else {
		for base := 0; base+rf <= len(reps); base += rf {
			m := reps[base : base+rf]
			t := int32(base / rf)
			for i, nd := range m {
				if rk := rackOf[nd]; !onRack(m[:i], rk, rackOf) {
					rt[cr[rk]] = t
					cr[rk]++
				}
			}
		}
	}
	for _, k := range ur {
		cr[k] = 0
	}
	e.usedRack = ur
	ix.lazy = nil
}

// sortKeys sorts the distinct keys used, by sorting them when few or by
// scanning the counters when many.
func sortKeys(used, cnt []int32) []int32 {
	if len(used)*8 < len(cnt) {
		slices.Sort(used)
		return used
	}
	used = used[:0]
	for k, c := range cnt {
		if c > 0 {
			used = append(used, int32(k))
		}
	}
	return used
}

// mapIndex groups a job's maps by the nodes, and by the racks, holding
// their blocks.
type mapIndex struct {
	byNode, byRack localIndex
	buf            []int32 // backs byNode
	rackBuf        []int32 // backs byRack once made
}

// localIndex groups task indices by a key (a node or a rack) in compressed
// rows, the tasks of row r at tasks[bounds[2r]:bounds[2r+2]] and
// bounds[2r+1] the next position to look at: start, cursor and end side by
// side, in one cache line. An index covering an eighth of the keys or more
// is dense, a row for every key (row r is key r, found with no search);
// a sparser one has rows for its sorted keys only. Launched tasks are
// skipped lazily, so picking is amortized O(log keys) at most.
type localIndex struct {
	keys   []int32 // the key of each row; nil when dense
	bounds []int32
	tasks  []int32
	dense  bool
	lazy   *Engine // makes a rack index not made yet (buildRackIndex)
}

// dense reports whether an index of used keys out of nkeys has a row for
// every key.
func dense(used, nkeys int) bool { return used*8 >= nkeys }

// indexLen is the length of an index of used keys out of nkeys and n
// tasks.
func indexLen(used, nkeys, n int) int {
	if dense(used, nkeys) {
		return 2*nkeys + 1 + n
	}
	return used + 2*used + 1 + n
}

// carve lays the index out at the front of buf for the sorted keys used,
// out of nkeys, with cnt[k] tasks under key k and n tasks in all, turns
// the cnt of each used key into its next free position, and returns the
// rest of buf.
func (ix *localIndex) carve(buf []int32, keys, cnt []int32, n, nkeys int) []int32 {
	rows := len(keys)
	if ix.dense = dense(len(keys), nkeys); ix.dense {
		rows = nkeys
	} else {
		ix.keys = buf[:rows:rows]
		copy(ix.keys, keys)
		buf = buf[rows:]
	}
	b := 2*rows + 1
	ix.bounds = buf[:b:b]
	ix.tasks = buf[b : b+n : b+n]
	pos := int32(0)
	for r := range rows {
		k := int32(r)
		if !ix.dense {
			k = keys[r]
		}
		ix.bounds[2*r], ix.bounds[2*r+1] = pos, pos
		if c := cnt[k]; c > 0 { // an unused key's counter stays 0
			cnt[k] = pos
			pos += c
		}
	}
	ix.bounds[2*rows] = pos
	return buf[b+n:]
}

// find returns the row of key, or -1.
func (ix *localIndex) find(key int32) int {
	if ix.dense {
		return int(key)
	}
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

// first returns the first pending map of j under key, or -1.
func (ix *localIndex) first(key int32, j *job) int32 {
	if ix.lazy != nil {
		ix.lazy.buildRackIndex(j)
	}
	r := ix.find(key)
	if r < 0 {
		return -1
	}
	b := ix.bounds[2*r+1 : 2*r+3 : 2*r+3]
	c, end := b[0], b[1]
	for c < end && !j.mapPending(ix.tasks[c]) {
		c++
	}
	b[0] = c
	if c == end {
		return -1
	}
	return ix.tasks[c]
}

// scanLocal is the small jobs' substitute for the indexes: the first
// pending map from the job's cursor on with a replica on node n, and the
// first with one on n's rack. Maps before the cursor are launched or
// pending again after a kill or loss (those are looked at separately).
func (e *Engine) scanLocal(j *job, n int32) (node, rack int32) {
	rf := e.rf
	rk := e.rackOf[n]
	rack = -1
	from := j.anyNext[Map]
	for w := int(from >> 6); w < len(j.pendingMaps); w++ {
		bits := j.pendingMaps[w]
		if w == int(from>>6) {
			bits &^= 1<<(from&63) - 1
		}
		for bits != 0 {
			t := int32(w<<6 + mbits.TrailingZeros64(bits))
			bits &= bits - 1
			for _, r := range j.replicas[int(t)*rf : int(t+1)*rf] {
				if r == n {
					return t, rack
				}
				if rack < 0 && e.rackOf[r] == rk {
					rack = t
				}
			}
		}
	}
	return -1, rack
}

// mapLocality is the locality of map t of job j if it ran on node n.
// A map that reads no input runs as well anywhere: NoInput.
func (e *Engine) mapLocality(j *job, t int32, n int32) Locality {
	if j.noInput {
		return NoInput
	}
	rf := e.rf
	rack := e.rackOf[n]
	loc := OffRack
	for _, r := range j.replicas[int(t)*rf : int(t+1)*rf] {
		if r == n {
			return NodeLocal
		}
		if e.rackOf[r] == rack {
			loc = RackLocal
		}
	}
	return loc
}
