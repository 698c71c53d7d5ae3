package replay

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Model is how a node offers its resources to tasks.
type Model uint8

// Resource models.
const (
	// SlotModel is Hadoop 1.x: each node has typed map and reduce slots.
	// It is the special case of resource vectors with the two resources
	// map-slot and reduce-slot, where a map asks (1, 0) and a reduce (0, 1).
	SlotModel Model = iota
	// ContainerModel is YARN: maps and reduces draw fungible containers
	// from the same memory and vcores of a node, and every job first runs
	// its ApplicationMaster in a container of its own.
	ContainerModel
)

func (m Model) String() string {
	if m == ContainerModel {
		return "yarn"
	}
	return "slots"
}

// ParseModel reads a model's name: "slots" or "yarn".
func ParseModel(s string) (Model, error) {
	switch s {
	case "slots", "":
		return SlotModel, nil
	case "yarn", "containers":
		return ContainerModel, nil
	}
	return 0, fmt.Errorf("%q; want slots (Hadoop 1.x typed slots) or yarn (containers)", s)
}

// MaxResources is the number of resource types a cluster may have: two
// built in (map-slot and reduce-slot, or memory-mb and vcores) and up to
// two more in container mode, as YARN's resource types extend the set.
const MaxResources = 4

// Resources is an amount of each of the cluster's resources, in the order
// of View.ResourceNames.
type Resources [MaxResources]int64

// Resource names of the two models.
const (
	ResMapSlot    = "map-slot"
	ResReduceSlot = "reduce-slot"
	ResMemoryMB   = "memory-mb"
	ResVcores     = "vcores"
)

// String formats r with the names of the resources, e.g.
// "memory-mb 1024, vcores 1".
func formatRes(r *Resources, names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", n, r[i])
	}
	return b.String()
}

// NodeSpec describes one node of a cluster given node by node
// (Config.Cluster), for instance from a cluster file.
type NodeSpec struct {
	// Rack is the node's rack. Racks are numbered from 0 in node order:
	// the nodes of a rack are consecutive.
	Rack int32
	// MapSlots and ReduceSlots are the node's slots in the slot model.
	MapSlots, ReduceSlots int32
	// MemoryMB and Vcores are what its NodeManager offers in the
	// container model; Extra the amounts of Config.ExtraResources.
	MemoryMB, Vcores int64
	Extra            [MaxResources - 2]int64
	// Speed is the node's speed relative to the reference node (task
	// time is divided by it); 0 means 1.
	Speed float64
}

// ResourceChooser is implemented by policies that schedule some of the
// cluster's resources only, as YARN's DefaultResourceCalculator counts
// memory alone: the engine then checks a container's fit on the counted
// resources, and the others may be overcommitted. Without it every
// resource counts.
type ResourceChooser interface {
	Counts(resource string) bool
}

// roundUp rounds v up to a multiple of step, at least step.
func roundUp(v, step int64) int64 {
	if v <= step {
		return step
	}
	return (v + step - 1) / step * step
}

// initResources sets the resource names, each node's capacity and the
// per-kind unit request, from the configuration.
func (e *Engine) initResources() {
	c := &e.cfg
	e.model = c.Model
	if e.model == SlotModel {
		e.resNames = []string{ResMapSlot, ResReduceSlot}
		e.unit[Map][0] = 1
		e.unit[Reduce][1] = 1
	} else {
		e.resNames = append([]string{ResMemoryMB, ResVcores}, c.ExtraResources...)
		for k := Map; k <= Reduce; k++ {
			e.unit[k][0] = c.MinAllocationMB
			e.unit[k][1] = c.MinAllocationVcores
		}
		e.step = [2]int64{c.MinAllocationMB, 1}
		if inc, ok := e.sched.(Incrementer); ok {
			mb, v := inc.AllocationIncrement()
			e.step = [2]int64{max(mb, 1), max(v, 1)}
		}
		e.amReq = e.normalize(c.AMMemoryMB, c.AMVcores)
	}
	e.nres = len(e.resNames)
	rc, _ := e.sched.(ResourceChooser)
	for r, name := range e.resNames {
		e.enforce[r] = rc == nil || rc.Counts(name)
	}
	if e.model == SlotModel {
		// fitsTask's bounds: a slot of the task's kind free, and no
		// counted kind overcommitted; none on a kind not counted.
		for k := Map; k <= Reduce; k++ {
			for r := range e.slotMin[k] {
				e.slotMin[k][r] = math.MinInt64
				if e.enforce[r] {
					e.slotMin[k][r] = e.unit[k][r]
				}
			}
		}
	}
	e.unitRes = e.unitRes[:0]
	if e.model == ContainerModel {
		for r := 0; r < e.nres; r++ {
			if e.enforce[r] && e.unit[Map][r] > 0 {
				e.unitRes = append(e.unitRes, int8(r))
			}
		}
	}
	e.cpuShared = e.model == ContainerModel && !e.enforce[1]
	if e.cpuShared {
		e.cpus = make([]nodeCPU, c.Nodes)
		for i := range e.cpus {
			e.cpus[i].rate = 1
		}
	}
	for k := Map; k <= Reduce; k++ {
		e.unitIdx[k] = -1
		if e.model == SlotModel {
			e.unitIdx[k] = int8(k)
		}
	}
}

// nodeCapacity is node i's capacity under the configuration.
func (e *Engine) nodeCapacity(i int) Resources {
	c := &e.cfg
	var capa Resources
	if c.Cluster != nil {
		s := &c.Cluster[i]
		if e.model == SlotModel {
			return Resources{int64(s.MapSlots), int64(s.ReduceSlots)}
		}
		capa = Resources{s.MemoryMB, s.Vcores}
		copy(capa[2:], s.Extra[:])
		return capa
	}
	if e.model == SlotModel {
		return Resources{int64(c.MapSlots), int64(c.ReduceSlots)}
	}
	return Resources{c.NodeMemoryMB, c.NodeVcores}
}

// units is how many unit requests of kind k fit in avail: free slots of
// kind k in the slot model, minimum-size containers in the container
// model.
func (e *Engine) units(avail *Resources, k TaskKind) int32 {
	if i := e.unitIdx[k]; i >= 0 {
		return int32(avail[i])
	}
	return e.containers(avail)
}

// containers is how many minimum-size containers fit in avail: holds of
// the unit, which is both kinds' in the container model, over the counted
// resources it asks for (unitRes; memory alone under YARN's default
// calculator).
func (e *Engine) containers(avail *Resources) int32 {
	n := int64(1 << 30)
	for _, r := range e.unitRes {
		n = min(n, max(avail[r], 0)/e.unit[Map][r])
	}
	return int32(n)
}

// holds is how many requests req fit in avail, on the resources the policy
// counts (1<<30 when none of them limits it).
func (e *Engine) holds(avail, req *Resources) int64 {
	n := int64(1 << 30)
	for r := 0; r < e.nres; r++ {
		if req[r] > 0 && e.enforce[r] {
			n = min(n, max(avail[r], 0)/req[r])
		}
	}
	return n
}

// badSlots reports node ni's count of free slots of kind k out of range.
func (e *Engine) badSlots(ni int32, k TaskKind) {
	n := &e.nodes[ni]
	e.violate("node %d has %d free %s slots of %d", ni, n.free[k], k, n.capa[k])
}

// fitsTask is fits of the request of a task of kind k of job ji: in the
// slot model, where the request is a slot of kind k, without the loop.
func (e *Engine) fitsTask(n *node, ji int32, k TaskKind) bool {
	if e.reqs == nil { // the slot model (request)
		m := &e.slotMin[k&1]
		return n.avail[Map] >= m[Map] && n.avail[Reduce] >= m[Reduce]
	}
	return e.fits(n, &e.reqs[ji][k])
}

// fits reports whether req fits in node n's available resources, on the
// resources the policy counts.
func (e *Engine) fits(n *node, req *Resources) bool {
	for r := 0; r < e.nres; r++ {
		if e.enforce[r] && req[r] > n.avail[r] {
			return false
		}
	}
	return true
}

// request is what one task of kind k of job ji asks for.
func (e *Engine) request(ji int32, k TaskKind) *Resources {
	if e.reqs == nil {
		return &e.unit[k]
	}
	return &e.reqs[ji][k]
}

// containerSize computes job ji's container requests from its trace: the
// task's memory (or the MapReduce default when the trace has none) and
// cores (at least one vcore), rounded up to YARN's minimum allocation.
func (e *Engine) containerSize(ji int32, j *job) {
	c := &e.cfg
	tj := j.tj
	mem := [2]int64{tj.MapMemoryBytes, tj.ReduceMemoryBytes}
	def := [2]int64{c.MapMemoryMB, c.ReduceMemoryMB}
	cores := [2]float64{tj.MapCores, tj.ReduceCores}
	for k := Map; k <= Reduce; k++ {
		mb := (mem[k] + 1<<20 - 1) >> 20
		if mb == 0 {
			mb = def[k]
		}
		v := int64(cores[k])
		if float64(v) < cores[k] {
			v++
		}
		e.reqs[ji][k] = e.normalize(mb, v)
	}
}

// normalize is a request of mb MiB and v vcores as the scheduler
// allocates it: at least the minimum allocation, rounded up to a
// multiple of the step (SchedulerUtils.normalizeRequest).
func (e *Engine) normalize(mb, v int64) Resources {
	c := &e.cfg
	return Resources{roundUp(max(mb, c.MinAllocationMB), e.step[0]), roundUp(max(v, c.MinAllocationVcores), e.step[1])}
}

// neverFits names the first of job ji's requests (its AM's, then its
// tasks') that no node of the cluster could ever hold, or "".
func (e *Engine) neverFits(ji int32, j *job) string {
	check := func(what string, req *Resources) string {
		for i := range e.shapes {
			ok := true
			for r := 0; r < e.nres; r++ {
				if e.enforce[r] && req[r] > e.shapes[i][r] {
					ok = false
					break
				}
			}
			if ok {
				return ""
			}
		}
		return fmt.Sprintf("its %s asks for %s, more than any node offers", what, formatRes(req, e.resNames))
	}
	if s := check("ApplicationMaster", &e.amReq); s != "" {
		return s
	}
	if j.nmaps > 0 {
		if s := check("maps' containers", e.request(ji, Map)); s != "" {
			return s
		}
	}
	if j.nrd > 0 {
		return check("reduces' containers", e.request(ji, Reduce))
	}
	return ""
}

// allocate changes node ni's available resources by -d × req in the
// container model, keeping its free unit counts and the cluster's
// allocation integral, and checking capacity. (In the slot model occupy
// changes a slot count; the busy slot time is its integral.)
func (e *Engine) allocate(ni int32, req *Resources, d int64) {
	n := &e.nodes[ni]
	// One pass over the resources: the integral, the allocation, and
	// whether the node's check fails.
	dt := (e.now - e.allocSince).Sec()
	e.allocSince = e.now
	var bad bool
	if e.nres == 2 {
		// Memory and vcores, as in the loop below, unrolled.
		a0, a1 := e.allocated[0], e.allocated[1]
		e.allocIntegr[0] += dt * float64(a0)
		e.allocIntegr[1] += dt * float64(a1)
		x0, x1 := d*req[0], d*req[1]
		e.allocated[0], e.allocated[1] = a0+x0, a1+x1
		v0, v1 := n.avail[0]-x0, n.avail[1]-x1
		n.avail[0], n.avail[1] = v0, v1
		bad = (e.enforce[0] && v0 < 0) || v0 > n.capa[0] || (e.enforce[1] && v1 < 0) || v1 > n.capa[1]
	} else {
		for r := 0; r < e.nres; r++ {
			a := e.allocated[r]
			e.allocIntegr[r] += dt * float64(a)
			x := d * req[r]
			e.allocated[r] = a + x
			v := n.avail[r] - x
			n.avail[r] = v
			bad = bad || (e.enforce[r] && v < 0) || v > n.capa[r]
		}
	}
	// Both kinds' unit is the minimum allocation: one count serves both.
	before := n.free
	free := e.containers(&n.avail)
	n.free = [2]int32{free, free}
	e.countFree(n, Map, before[Map])
	e.countFree(n, Reduce, before[Reduce])
	if bad && e.check {
		for r := 0; r < e.nres; r++ {
			if (e.enforce[r] && n.avail[r] < 0) || n.avail[r] > n.capa[r] {
				e.violate("node %d has %d of %d %s free", ni, n.avail[r], n.capa[r], e.resNames[r])
				return
			}
		}
	}
}

// checkCluster checks what the parameter ranges cannot: the node list of
// Config.Cluster, and the container model's combinations.
func (c *Config) checkCluster() error {
	if c.Model == ContainerModel {
		if c.MTBF > 0 {
			return fmt.Errorf("replay: node failures (MTBF) are not modelled in the container model")
		}
		if len(c.ExtraResources) > MaxResources-2 {
			return fmt.Errorf("replay: %d extra resources; at most %d", len(c.ExtraResources), MaxResources-2)
		}
	} else if len(c.ExtraResources) > 0 {
		return fmt.Errorf("replay: extra resources %v need the container model", c.ExtraResources)
	}
	if c.Cluster == nil {
		if c.Model == ContainerModel {
			if n := int64(c.Nodes) * min(c.NodeMemoryMB/c.MinAllocationMB, c.NodeVcores/c.MinAllocationVcores); n > MaxContainers {
				return fmt.Errorf("replay: %d nodes hold %d minimum-size containers; want at most %d", c.Nodes, n, MaxContainers)
			}
		}
		return nil
	}
	if c.NodeSpeeds != nil || c.SpeedSigma != 0 {
		return fmt.Errorf("replay: node speeds come from the cluster's nodes; NodeSpeeds and SpeedSigma must be unset")
	}
	var units int64
	for i := range c.Cluster {
		s := &c.Cluster[i]
		switch {
		case s.Rack < 0 || (i == 0 && s.Rack != 0) || (i > 0 && s.Rack != c.Cluster[i-1].Rack && s.Rack != c.Cluster[i-1].Rack+1):
			return fmt.Errorf("replay: Cluster[%d] is on rack %d; racks are numbered from 0 and their nodes consecutive", i, s.Rack)
		case s.Speed < 0 || s.Speed > 1000 || s.Speed != s.Speed:
			return fmt.Errorf("replay: Cluster[%d] has speed %v; want a speed in (0, 1000]", i, s.Speed)
		}
		if c.Model == SlotModel {
			if s.MapSlots < 0 || s.ReduceSlots < 0 || s.MapSlots > MaxSlotsPerNode || s.ReduceSlots > MaxSlotsPerNode {
				return fmt.Errorf("replay: Cluster[%d] has %d map and %d reduce slots; want 0 to %d each", i, s.MapSlots, s.ReduceSlots, MaxSlotsPerNode)
			}
			units += int64(s.MapSlots + s.ReduceSlots)
			continue
		}
		if s.MemoryMB < 0 || s.MemoryMB > MaxMemoryMB || s.Vcores < 0 || s.Vcores > MaxVcores {
			return fmt.Errorf("replay: Cluster[%d] has %d MiB and %d vcores; want 0 to %d MiB and 0 to %d vcores", i, s.MemoryMB, s.Vcores, int64(MaxMemoryMB), MaxVcores)
		}
		for x := range c.ExtraResources {
			if s.Extra[x] < 0 || s.Extra[x] > MaxVcores {
				return fmt.Errorf("replay: Cluster[%d] has %d %s; want 0 to %d", i, s.Extra[x], c.ExtraResources[x], MaxVcores)
			}
		}
		units += min(s.MemoryMB/c.MinAllocationMB, s.Vcores/c.MinAllocationVcores)
	}
	if units > MaxContainers {
		return fmt.Errorf("replay: the cluster holds %d slots or minimum-size containers; want at most %d", units, MaxContainers)
	}
	if units == 0 {
		return fmt.Errorf("replay: the cluster's nodes offer no slot or container")
	}
	return nil
}

// amWaiting reports whether a job waits for its ApplicationMaster and the
// AMs' cap lets one more start.
// An AMScheduler applies its own limits.
func (e *Engine) amWaiting() bool {
	return e.amHead < len(e.amQueue) && (e.amPol != nil || e.amUsedMB == 0 || e.amUsedMB+e.amReq[0] <= e.amLimitMB)
}

// queueAM submits job ji in the container model: it waits for its
// ApplicationMaster's container, which the engine grants in submit order
// at the heartbeats of nodes with room (YARN allocates an AM like any
// container; the policies here see a job once its AM runs).
func (e *Engine) queueAM(ji int32, j *job) {
	e.containerSize(ji, j)
	if why := e.neverFits(ji, j); why != "" && e.err == nil {
		e.err = fmt.Errorf("replay: job %d (id %d, %q) can never run: %s", ji, j.id, j.tj.Name, why)
		return
	}
	j.amNode = -1
	if e.amHead == len(e.amQueue) {
		e.amQueue, e.amHead = e.amQueue[:0], 0
		e.wakePending = true
	}
	e.amQueue = append(e.amQueue, ji)
}

// startAMs starts the ApplicationMasters that fit on node ni, in submit
// order, before the policy acts on the node: each job arrives for the
// policy as its AM starts.
func (e *Engine) startAMs(ni int32) {
	n := &e.nodes[ni]
	for e.amWaiting() && n.alive && e.amFits(n) {
		ji := e.amQueue[e.amHead]
		if e.amPol != nil {
			ji = e.amPol.ChooseAM(ni, &e.view)
			e.polCalls++
			if ji < 0 {
				return
			}
			if ji >= int32(len(e.jobs)) || !e.takeAM(ji) {
				if e.err == nil {
					e.err = e.policyErr(fmt.Errorf("ChooseAM named job %d, which does not wait for its ApplicationMaster", ji))
				}
				return
			}
		} else {
			e.amHead++
		}
		j := &e.jobs[ji]
		e.swapContainers(ni, e.amReq[0]) // the AM's start is not delayed by it
		e.allocate(ni, &e.amReq, 1)
		if e.cpuShared {
			e.rerate(ni)
		}
		n.ams++
		e.amUsedMB += e.amReq[0]
		j.amNode, j.amStart = ni, e.now
		e.admit(ji, j)
	}
}

// takeAM takes job ji out of the jobs waiting for their AM, wherever
// it is in the queue; false if it does not wait.
func (e *Engine) takeAM(ji int32) bool {
	if ji < 0 || e.jobs[ji].amNode != -1 || e.jobs[ji].arrived {
		return false
	}
	i := slices.Index(e.amQueue[e.amHead:], ji)
	if i < 0 {
		return false
	}
	i += e.amHead
	copy(e.amQueue[e.amHead+1:i+1], e.amQueue[e.amHead:i])
	e.amHead++
	return true
}

// releaseAM ends job j's ApplicationMaster with the job.
func (e *Engine) releaseAM(j *job) {
	ni := j.amNode
	if ni < 0 {
		e.violate("a job finished without an ApplicationMaster")
		return
	}
	e.allocate(ni, &e.amReq, -1)
	if e.cpuShared {
		e.rerate(ni)
	}
	e.nodes[ni].ams--
	e.amUsedMB -= e.amReq[0]
	if e.amHead < len(e.amQueue) {
		e.wakePending = true // the cap may let the next AM start
	}
	e.wake(ni)
}

// amFits reports whether an ApplicationMaster may start on node n: it
// fits, and no container is suspended there. A suspended container's
// allocation is free for running tasks, which leave, but an AM would stay
// to its job's end: on a node it fills, the suspended container of the
// same job could then never resume.
func (e *Engine) amFits(n *node) bool {
	return len(n.suspended) == 0 && e.fits(n, &e.amReq)
}
