package clusterfile

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format writes c as a cluster file that Parse reads back to an equal
// Cluster (except Node.Line): a resources line if c declares extra
// resource types, then one line per group, every key written. A group of
// one node is a node line. It returns Validate's error, writing nothing,
// if c is not valid.
func (c *Cluster) Format(w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %d nodes\n", c.Nodes())
	if len(c.Extra) > 0 {
		fmt.Fprintf(bw, "resources %s\n", strings.Join(c.Extra, " "))
	}
	for _, g := range c.Groups {
		n := &g.Node
		if g.Count == 1 {
			bw.WriteString("node")
		} else {
			fmt.Fprintf(bw, "nodes count=%d", g.Count)
		}
		if n.Name != "" {
			bw.WriteString(" name=" + n.Name)
		}
		if n.Rack != "" {
			bw.WriteString(" rack=" + n.Rack)
		}
		fmt.Fprintf(bw, " memory=%s vcores=%d map-slots=%d reduce-slots=%d speed=%s",
			formatSize(n.MemoryMB), n.Vcores, n.MapSlots, n.ReduceSlots, formatSpeed(n.Speed))
		for i, name := range c.Extra {
			bw.WriteString(" " + name + "=" + strconv.FormatInt(n.Extra[i], 10))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
