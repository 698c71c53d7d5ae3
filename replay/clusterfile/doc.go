// Package clusterfile reads and writes cluster files: text files that
// describe a heterogeneous cluster, node by node or in groups of identical
// nodes, for bench replay --cluster FILE. A node has Hadoop 1.x map and
// reduce slots and YARN resources (memory, vcores and up to two extra
// resource types such as gpu), a rack and a relative speed.
//
// The format is line oriented. A '#' starts a comment to the end of the
// line; blank lines are ignored; fields are separated by spaces or tabs.
// A line is one of:
//
//	resources NAME...              declare extra resource types (at most 2, once, before the other lines)
//	default key=value...           change the defaults of the lines after it
//	node key=value...              one node
//	nodes count=N key=value...     N identical nodes
//	<memoryGB> <mapSlots> <reduceSlots>   one node, in an older simulator's per-machine format
//
// The keys, each at most once on a line, and their defaults:
//
//	rack=NAME          the node's rack; absent: the engine assigns racks
//	memory=SIZE        MiB, or a number with a MiB, GiB or TiB suffix (7.5GiB); whole MiB; default 8192
//	vcores=N           default 8
//	map-slots=N        Hadoop 1.x map slots, 0 to 1024; default 4
//	reduce-slots=N     Hadoop 1.x reduce slots, 0 to 1024; default 2
//	speed=X            relative speed, > 0 and <= 1000: task time is divided by it; default 1
//	name=NAME          a label (not on a default line)
//	count=N            the group's size (nodes lines only)
//	RESOURCE=N         the amount of a declared extra resource; default 0
//
// Memory and vcores default to YARN's NodeManager defaults
// (yarn.nodemanager.resource.memory-mb and cpu-vcores); the slots to the
// HFSP paper's TaskTrackers. Names are printable ASCII without spaces, '#'
// or '='. A legacy line takes its vcores, speed and rack from the
// defaults in force.
//
// Parse checks everything before it allocates: counts (at most MaxNodes
// nodes in all) and every value. Each error is one line naming the file
// and line, then the key and what was wanted:
//
//	cluster.txt:7: memory="15XB": want a size in MiB, or with a MiB/GiB/TiB suffix
//
// A Cluster keeps the file's groups (Expand makes one Node per node), and
// Format writes it back as a file that Parse reads to an equal Cluster.
// The format is described with examples in docs/cluster-file.md.
package clusterfile
