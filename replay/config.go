package replay

import (
	"fmt"
	"math"
)

// Config describes the modelled cluster. The zero value of every field means
// its documented default; Validate fills the defaults in.
type Config struct {
	// Model is Hadoop 1.x typed slots (the default) or YARN containers.
	Model Model

	Nodes        int // TaskTrackers or NodeManagers (default 100)
	NodesPerRack int // nodes per rack (default 20)
	MapSlots     int // map slots per node (default 4)
	// ReduceSlots is the reduce slots per node (default 2). In both models
	// it is also the number of shuffles a node's bandwidth is split among.
	ReduceSlots int

	// Cluster, if set, describes the nodes one by one (a heterogeneous
	// cluster, e.g. from a cluster file): Nodes becomes its length, and
	// its entries replace MapSlots, ReduceSlots, NodeMemoryMB, NodeVcores,
	// NodeSpeeds and NodesPerRack's racks.
	Cluster []NodeSpec
	// ExtraResources names resources beyond memory-mb and vcores that
	// Cluster's nodes offer (container model; at most two).
	ExtraResources []string

	// The container model (Model == ContainerModel). Memory is in MiB.
	// NodeMemoryMB and NodeVcores are what each NodeManager offers
	// (defaults 8192 and 8, yarn.nodemanager.resource.memory-mb and
	// .cpu-vcores). A container is rounded up to a multiple of
	// MinAllocationMB and to at least MinAllocationVcores (defaults 1024
	// and 1, yarn.scheduler.minimum-allocation-*). A task asks for its
	// trace memory, or MapMemoryMB / ReduceMemoryMB when the trace has
	// none (defaults 1024, mapreduce.{map,reduce}.memory.mb), and its
	// trace cores (at least one vcore). Each job's ApplicationMaster holds
	// AMMemoryMB and AMVcores (defaults 1536 and 1,
	// yarn.app.mapreduce.am.resource.*) from before its first task until
	// its end; AMs may hold at most MaxAMShare of the cluster's memory
	// (default 0.1, the Capacity scheduler's
	// maximum-am-resource-percent), but one AM may always start.
	NodeMemoryMB        int64
	NodeVcores          int64
	MinAllocationMB     int64
	MinAllocationVcores int64
	MapMemoryMB         int64
	ReduceMemoryMB      int64
	AMMemoryMB          int64
	AMVcores            int64
	MaxAMShare          float64

	// NodeSpeeds optionally gives each node's speed relative to the
	// reference node (task time is divided by it). If nil and SpeedSigma > 0,
	// speeds are drawn log-normally with that sigma and mean 1 from Seed.
	NodeSpeeds []float64
	SpeedSigma float64

	// Replication is the number of HDFS replicas of each map's block
	// (default 3). Placement follows HDFS's default policy: the first replica
	// on a random node, the other two on two distinct nodes of one other rack.
	Replication int

	// Heartbeat is the TaskTracker heartbeat interval in seconds. Zero means
	// Hadoop 1.x's rule max(0.3 s, nodes/100 s) in the slot model, and
	// YARN's NodeManager default of 1 s in the container model.
	Heartbeat float64
	// OutOfBandHeartbeat makes a node heartbeat as soon as one of its tasks
	// finishes (Hadoop 1.x mapreduce.tasktracker.outofband.heartbeat;
	// default false, as in Hadoop).
	OutOfBandHeartbeat bool

	// RackLocalFactor and OffRackFactor multiply the duration of a map that
	// reads its block from another node of its rack, or from another rack
	// (defaults 1.2 and 2.0; a node-local map runs at its trace duration).
	RackLocalFactor float64
	OffRackFactor   float64

	// SlowStart is the fraction of a job's maps that must finish before its
	// reduces may launch (mapred.reduce.slowstart.completed.maps; default 0.05).
	// A negative value means 0.
	SlowStart float64

	// ShuffleBandwidth is a node's network bandwidth for the shuffle in
	// bytes/s, split evenly among its reduce slots (default 100e6).
	ShuffleBandwidth float64
	// DiskBandwidth is the swap bandwidth of a node in bytes/s, used to
	// swap out a suspended task's memory and back in (default 100e6).
	DiskBandwidth float64
	// MaxSuspendedPerNode caps the tasks suspended on one node (default 4);
	// a Suspend beyond it is refused and the policy must fall back to waiting.
	MaxSuspendedPerNode int

	// MTBF and MTTR are the mean time between failures and to repair of a
	// node, in seconds (exponential, drawn from Seed). MTBF 0 disables
	// failures.
	MTBF float64
	MTTR float64

	// Seed drives every random draw of a run.
	Seed uint64

	// RecordTasks keeps one row per task segment; RecordOccupancy keeps a
	// per-job slot occupancy time series.
	RecordTasks     bool
	RecordOccupancy bool

	// NoInvariantChecks turns the invariant checker off (it is on by
	// default and costs a few percent).
	NoInvariantChecks bool

	// Horizon aborts a run whose simulated time passes it, in seconds
	// (default 1e9 s).
	Horizon float64

	// Progress, if set, is called each time another 1% of the jobs has
	// finished, with the jobs finished so far and in all. It must not touch
	// the engine.
	Progress func(finished, total int)
}

// Defaults of Config.
const (
	DefaultNodes            = 100
	DefaultNodesPerRack     = 20
	DefaultMapSlots         = 4
	DefaultReduceSlots      = 2
	DefaultReplication      = 3
	DefaultRackLocalFactor  = 1.2
	DefaultOffRackFactor    = 2.0
	DefaultSlowStart        = 0.05
	DefaultShuffleBandwidth = 100e6
	DefaultDiskBandwidth    = 100e6
	DefaultMaxSuspended     = 4
	DefaultMTTR             = 600
	DefaultHorizon          = 1e9

	DefaultNodeMemoryMB        = 8192
	DefaultNodeVcores          = 8
	DefaultMinAllocationMB     = 1024
	DefaultMinAllocationVcores = 1
	DefaultTaskMemoryMB        = 1024
	DefaultAMMemoryMB          = 1536
	DefaultAMVcores            = 1
	DefaultMaxAMShare          = 0.1
	DefaultNMHeartbeat         = 1.0
)

// HeartbeatInterval is Hadoop 1.x's TaskTracker heartbeat interval for a
// cluster of n nodes: max(0.3 s, n/100 s).
func HeartbeatInterval(n int) float64 { return math.Max(0.3, float64(n)/100) }

// Validate fills in defaults and reports the first field out of range.
func (c *Config) Validate() error {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	deff := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	if c.Model > ContainerModel {
		return fmt.Errorf("replay: Model is %d; want SlotModel or ContainerModel", c.Model)
	}
	if c.Cluster != nil {
		if c.Nodes != 0 && c.Nodes != len(c.Cluster) {
			return fmt.Errorf("replay: Nodes is %d but Cluster describes %d nodes", c.Nodes, len(c.Cluster))
		}
		if len(c.Cluster) == 0 {
			return fmt.Errorf("replay: Cluster describes no node")
		}
		c.Nodes = len(c.Cluster)
	}
	if c.Model == ContainerModel {
		def64 := func(p *int64, v int64) {
			if *p == 0 {
				*p = v
			}
		}
		def64(&c.NodeMemoryMB, DefaultNodeMemoryMB)
		def64(&c.NodeVcores, DefaultNodeVcores)
		def64(&c.MinAllocationMB, DefaultMinAllocationMB)
		def64(&c.MinAllocationVcores, DefaultMinAllocationVcores)
		def64(&c.MapMemoryMB, DefaultTaskMemoryMB)
		def64(&c.ReduceMemoryMB, DefaultTaskMemoryMB)
		def64(&c.AMMemoryMB, DefaultAMMemoryMB)
		def64(&c.AMVcores, DefaultAMVcores)
		if c.MaxAMShare == 0 {
			c.MaxAMShare = DefaultMaxAMShare
		}
		if c.Heartbeat == 0 {
			c.Heartbeat = DefaultNMHeartbeat
		}
	}
	def(&c.Nodes, DefaultNodes)
	def(&c.NodesPerRack, DefaultNodesPerRack)
	def(&c.MapSlots, DefaultMapSlots)
	def(&c.ReduceSlots, DefaultReduceSlots)
	def(&c.Replication, DefaultReplication)
	def(&c.MaxSuspendedPerNode, DefaultMaxSuspended)
	deff(&c.RackLocalFactor, DefaultRackLocalFactor)
	deff(&c.OffRackFactor, DefaultOffRackFactor)
	deff(&c.ShuffleBandwidth, DefaultShuffleBandwidth)
	deff(&c.DiskBandwidth, DefaultDiskBandwidth)
	deff(&c.Horizon, DefaultHorizon)
	deff(&c.Heartbeat, HeartbeatInterval(c.Nodes))
	if c.SlowStart == 0 {
		c.SlowStart = DefaultSlowStart
	} else if c.SlowStart < 0 {
		c.SlowStart = 0
	}
	if c.MTBF > 0 && c.MTTR == 0 {
		c.MTTR = DefaultMTTR
	}
	switch {
	case c.Nodes < 0:
		return fmt.Errorf("replay: Nodes is %d; want > 0", c.Nodes)
	case c.NodesPerRack < 0:
		return fmt.Errorf("replay: NodesPerRack is %d; want > 0", c.NodesPerRack)
	case c.MapSlots < 0:
		return fmt.Errorf("replay: MapSlots is %d; want >= 0", c.MapSlots)
	case c.ReduceSlots < 0:
		return fmt.Errorf("replay: ReduceSlots is %d; want >= 0", c.ReduceSlots)
	case c.Replication < 0:
		return fmt.Errorf("replay: Replication is %d; want > 0", c.Replication)
	case !(c.Heartbeat > 0) || math.IsInf(c.Heartbeat, 0):
		return fmt.Errorf("replay: Heartbeat is %v s; want a finite interval > 0", c.Heartbeat)
	case !(c.RackLocalFactor > 0) || !(c.OffRackFactor > 0):
		return fmt.Errorf("replay: locality factors %v, %v; want > 0", c.RackLocalFactor, c.OffRackFactor)
	case c.SlowStart > 1:
		return fmt.Errorf("replay: SlowStart is %v; want a fraction in [0, 1]", c.SlowStart)
	case !(c.ShuffleBandwidth > 0) || !(c.DiskBandwidth > 0):
		return fmt.Errorf("replay: bandwidths %v, %v B/s; want > 0", c.ShuffleBandwidth, c.DiskBandwidth)
	case c.MaxSuspendedPerNode < 0:
		return fmt.Errorf("replay: MaxSuspendedPerNode is %d; want >= 0", c.MaxSuspendedPerNode)
	case c.MTBF < 0 || c.MTTR < 0:
		return fmt.Errorf("replay: MTBF %v, MTTR %v s; want >= 0", c.MTBF, c.MTTR)
	case c.SpeedSigma < 0:
		return fmt.Errorf("replay: SpeedSigma is %v; want >= 0", c.SpeedSigma)
	case c.NodeSpeeds != nil && len(c.NodeSpeeds) != c.Nodes:
		return fmt.Errorf("replay: NodeSpeeds has %d entries for %d nodes", len(c.NodeSpeeds), c.Nodes)
	}
	for i, s := range c.NodeSpeeds {
		if !(s > 0) || math.IsInf(s, 0) {
			return fmt.Errorf("replay: NodeSpeeds[%d] is %v; want a finite speed > 0", i, s)
		}
	}
	if c.MapSlots+c.ReduceSlots == 0 {
		return fmt.Errorf("replay: nodes have no slots (MapSlots and ReduceSlots are 0)")
	}
	if err := c.checkRanges(); err != nil {
		return err
	}
	return c.checkCluster()
}
