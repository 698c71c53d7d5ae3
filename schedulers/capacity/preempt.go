package capacity

import (
	"cmp"
	"math"
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/victim"
)

// Preemption of the CapacityScheduler (see Capacity).

// ideal is what leaf n should hold of kind k: its guarantee, or less if it
// has less work (running plus waiting tasks).
func (c *Capacity) ideal(n *capNode, k replay.TaskKind) int {
	want := n.used[k]
	for _, j := range n.ready[k] {
		want += c.v.Job(j).Pending(k)
	}
	return min(int(math.Floor(c.guarantee(n, k)+1e-9)), want)
}

// check runs the starvation clocks and, for leaves starved past the
// timeout, picks the tasks to kill.
func (c *Capacity) check(v *replay.View) {
	now := v.Now()
	timeout := replay.Seconds(c.o.timeout)
	c.starved = false
	for k := replay.Map; k <= replay.Reduce; k++ {
		need := 0
		var over []*capNode
		c.walk(c.root, func(n *capNode) {
			if !n.q.Leaf() {
				return
			}
			n.spare[k] = 0
			ideal := c.ideal(n, k)
			switch {
			case n.used[k] >= ideal:
				n.starvedAt[k] = -1
			case n.starvedAt[k] < 0:
				n.starvedAt[k] = now
				c.starved = true
			default:
				c.starved = true
				if now-n.starvedAt[k] >= timeout {
					need += ideal - n.used[k]
				}
			}
			// Slots it holds above its guarantee, less kills already asked.
			n.spare[k] = n.used[k] - int(math.Ceil(c.guarantee(n, k)-1e-9))
			if n.spare[k] > 0 {
				over = append(over, n)
			}
		})
		for _, vs := range c.kills {
			for _, vi := range vs {
				if vi.Ref.Kind == k {
					need--
					c.jobs[vi.Ref.Job].leaf.spare[k]--
				}
			}
		}
		need -= v.Slots(k) - c.root.used[k] // free slots need no kill
		if need <= 0 {
			continue
		}
		slices.SortStableFunc(over, func(a, b *capNode) int {
			return cmp.Or(cmp.Compare(c.served(b, k), c.served(a, k)), cmp.Compare(a.q.Name, b.q.Name))
		})
		for _, n := range over {
			for need > 0 && n.spare[k] > 0 {
				vi, ok := c.youngest(v, n, k)
				if !ok {
					break
				}
				c.kills[vi.Node] = append(c.kills[vi.Node], vi)
				c.nKills++
				need--
				n.spare[k]--
			}
		}
	}
}

// youngest is the running task of kind k of leaf n's latest job that has
// one, youngest attempt first, that is not already marked for a kill.
func (c *Capacity) youngest(v *replay.View, n *capNode, k replay.TaskKind) (victim.Victim, bool) {
	for i := len(n.apps) - 1; i >= 0; i-- {
		j := n.apps[i]
		if v.Job(j).Running(k) == 0 {
			continue
		}
		var best victim.Victim
		found := false
		for t := range int32(v.Job(j).Tasks(k)) {
			ref := replay.TaskRef{Job: j, Kind: k, Index: t}
			tv := v.Task(ref)
			if !tv.Running() || c.marked(tv.Node(), ref) {
				continue
			}
			if !found || tv.AttemptStart() > best.Start || tv.AttemptStart() == best.Start && t > best.Ref.Index {
				best = victim.Victim{Ref: ref, Node: tv.Node(), Attempts: tv.Attempts(), Start: tv.AttemptStart()}
				found = true
			}
		}
		if found {
			return best, true
		}
	}
	return victim.Victim{}, false
}

func (c *Capacity) marked(node int32, ref replay.TaskRef) bool {
	for _, vi := range c.kills[node] {
		if vi.Ref == ref {
			return true
		}
	}
	return false
}

// killHere kills the victims chosen for this tracker that still run the
// attempt chosen.
func (c *Capacity) killHere(hb *replay.Heartbeat) error {
	n, err := victim.KillMarked(hb, &c.kills[hb.Node()], func(r replay.TaskRef) {
		c.account(r, -1)
		c.refresh(hb.View, r.Job)
	})
	c.nKills -= n
	return err
}

// WantsBusyHeartbeats implements replay.Preempter: with preemption, full
// trackers report while kills wait for them or some leaf is below its
// ideal share (its starvation clock runs and must be checked).
func (c *Capacity) WantsBusyHeartbeats(v *replay.View) bool {
	if !c.o.preempt {
		return false
	}
	if c.nKills > 0 {
		return true
	}
	if c.dirty {
		c.dirty = false
		c.starved = false
		c.v = v
		c.walk(c.root, func(n *capNode) {
			for k := replay.Map; k <= replay.Reduce && n.q.Leaf() && !c.starved; k++ {
				c.starved = n.used[k] < c.ideal(n, k)
			}
		})
	}
	return c.starved
}
