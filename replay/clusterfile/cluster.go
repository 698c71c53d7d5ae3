package clusterfile

import (
	"fmt"
	"math"
)

// Limits of a cluster file. MaxMemoryMB times MaxNodes, and
// MaxExtra times MaxNodes, fit in an int64: a cluster's totals never
// overflow.
const (
	MaxNodes    = 1_000_000 // nodes in a file, all lines together
	MaxSlots    = 1024      // map slots, and reduce slots, of one node
	MaxMemoryMB = 1 << 40   // memory of one node, in MiB
	MaxVcores   = 1_000_000 // vcores of one node
	MaxExtra    = 1 << 40   // amount of an extra resource on one node
	MaxSpeed    = 1000      // relative speed of one node
	// MinSpeed keeps a task's time on the node within the replay's clock:
	// a 1e9 s task (the importers' longest) takes 1e12 s at 0.001, below
	// the int64 µs clock's 9.2e12 s; speed=1e-300 overflowed it.
	MinSpeed      = 0.001
	MaxExtraTypes = 2                 // extra resource types a file may declare
	MaxLegacyGiB  = MaxMemoryMB >> 10 // memory of a legacy line, in GiB
	MaxNameBytes  = 256               // length of a rack or node name
	maxLineBytes  = 64 << 10
)

// Defaults of a node line's keys, until a default line changes them.
// Memory and vcores are YARN's NodeManager defaults
// (yarn.nodemanager.resource.memory-mb = 8192,
// yarn.nodemanager.resource.cpu-vcores = 8); the slots are the cluster of
// the HFSP paper (4 map and 2 reduce slots per TaskTracker).
const (
	DefaultMemoryMB    = 8192
	DefaultVcores      = 8
	DefaultMapSlots    = 4
	DefaultReduceSlots = 2
	DefaultSpeed       = 1.0
)

// Node is one machine: a Hadoop 1.x TaskTracker (its map and reduce
// slots) and a YARN NodeManager (its memory, vcores and extra resources)
// at once; a replay uses the half its scheduler needs.
type Node struct {
	Name        string  // a label for reports; "" if none; a group's nodes share it
	Rack        string  // "" = the engine assigns the node to a rack
	MemoryMB    int64   // > 0
	Vcores      int64   // > 0
	Extra       []int64 // one amount per Cluster.Extra, in its order; nil if none are declared
	MapSlots    int
	ReduceSlots int
	Speed       float64 // task time is divided by it; 1 is the reference node
	Line        int     // the line of the file that made it; 0 if not from a file
}

// Group is Count identical nodes: one node or nodes line of the file.
type Group struct {
	Count int
	Node  Node
}

// Cluster is a parsed cluster file. Groups stay groups: a line of a
// million nodes takes the memory of one until Expand.
type Cluster struct {
	Extra  []string // the extra resource types declared, in order; nil if none
	Groups []Group  // in file order
}

// Nodes returns the number of nodes in the cluster.
func (c *Cluster) Nodes() int {
	n := 0
	for _, g := range c.Groups {
		n += g.Count
	}
	return n
}

// Expand returns one Node per node, groups in order, each group's nodes
// together. Every node has its own Extra slice. A group with a count
// below 1, possible only in a Cluster that Validate refuses, gives no node.
func (c *Cluster) Expand() []Node {
	nodes, extras := 0, 0
	for _, g := range c.Groups {
		if g.Count > 0 {
			nodes += g.Count
			extras += g.Count * len(g.Node.Extra)
		}
	}
	out := make([]Node, 0, nodes)
	extra := make([]int64, extras)
	for _, g := range c.Groups {
		for range g.Count {
			n := g.Node
			if k := len(n.Extra); k > 0 {
				n.Extra, extra = extra[:k:k], extra[k:]
				copy(n.Extra, g.Node.Extra)
			}
			out = append(out, n)
		}
	}
	return out
}

// Validate checks a Cluster against the rules of the file format, so that
// one built in code can be trusted, or written by Format, like one read
// by Parse. Its errors name the group (from 0) and the field.
func (c *Cluster) Validate() error {
	if len(c.Extra) > MaxExtraTypes {
		return fmt.Errorf("clusterfile: %d extra resource types; want at most %d", len(c.Extra), MaxExtraTypes)
	}
	for i, name := range c.Extra {
		if msg := checkResourceName(name); msg != "" {
			return fmt.Errorf("clusterfile: extra resource %q: %s", name, msg)
		}
		for _, other := range c.Extra[:i] {
			if other == name {
				return fmt.Errorf("clusterfile: extra resource %q declared twice", name)
			}
		}
	}
	if len(c.Groups) == 0 {
		return fmt.Errorf("clusterfile: no nodes")
	}
	total := 0
	for i, g := range c.Groups {
		if g.Count < 1 || g.Count > MaxNodes-total {
			return fmt.Errorf("clusterfile: group %d: count %d; want 1 to %d nodes in all", i, g.Count, MaxNodes)
		}
		total += g.Count
		if err := g.Node.validate(c.Extra); err != "" {
			return fmt.Errorf("clusterfile: group %d: %s", i, err)
		}
	}
	return nil
}

// validate returns what is wrong with n, or "".
func (n *Node) validate(extra []string) string {
	switch {
	case n.Name != "" && checkName(n.Name) != "":
		return fmt.Sprintf("name %q: %s", n.Name, checkName(n.Name))
	case n.Rack != "" && checkName(n.Rack) != "":
		return fmt.Sprintf("rack %q: %s", n.Rack, checkName(n.Rack))
	case n.MemoryMB < 1 || n.MemoryMB > MaxMemoryMB:
		return fmt.Sprintf("memory %d MiB; want 1 to %d", n.MemoryMB, int64(MaxMemoryMB))
	case n.Vcores < 1 || n.Vcores > MaxVcores:
		return fmt.Sprintf("vcores %d; want 1 to %d", n.Vcores, MaxVcores)
	case n.MapSlots < 0 || n.MapSlots > MaxSlots:
		return fmt.Sprintf("map slots %d; want 0 to %d", n.MapSlots, MaxSlots)
	case n.ReduceSlots < 0 || n.ReduceSlots > MaxSlots:
		return fmt.Sprintf("reduce slots %d; want 0 to %d", n.ReduceSlots, MaxSlots)
	case math.IsNaN(n.Speed) || !(n.Speed >= MinSpeed) || n.Speed > MaxSpeed:
		return fmt.Sprintf("speed %v; want a number from %g to %d", n.Speed, MinSpeed, MaxSpeed)
	case len(n.Extra) != len(extra):
		return fmt.Sprintf("%d extra amounts for %d extra resource types", len(n.Extra), len(extra))
	}
	for i, v := range n.Extra {
		if v < 0 || v > MaxExtra {
			return fmt.Sprintf("extra resource %s: %d; want 0 to %d", extra[i], v, int64(MaxExtra))
		}
	}
	return ""
}
