package capacity

import (
	"slices"

	"sojourn/replay"
	"sojourn/schedulers/internal/order"
)

// The CapacityScheduler's ready lists: per leaf and kind, the apps with a
// task of that kind to launch, in the order of apps (priority, submit
// time), and the number of users they belong to. A heartbeat looks only
// at those, and the user limit needs no walk over the apps to count the
// active users. They are brought up to date from the View after every
// event of a job and after every launch and kill of a heartbeat (whose
// events the engine delivers after it).

// refresh puts job j in or out of its leaf's ready lists.
func (c *Capacity) refresh(v *replay.View, j int32) {
	jb := &c.jobs[j]
	jv := v.Job(j)
	n := jb.leaf
	for k := replay.Map; k <= replay.Reduce; k++ {
		can := jb.in && jv.Launchable(k)
		if can == jb.can[k] {
			continue
		}
		jb.can[k] = can
		i, found := slices.BinarySearchFunc(n.ready[k], j, func(a, b int32) int { return order.FIFO(v, a, b) })
		if can {
			n.ready[k] = slices.Insert(n.ready[k], i, j)
			if jb.user.ready[k]++; jb.user.ready[k] == 1 {
				n.active[k]++
			}
		} else {
			if found {
				n.ready[k] = slices.Delete(n.ready[k], i, i+1)
			}
			if jb.user.ready[k]--; jb.user.ready[k] == 0 {
				n.active[k]--
			}
		}
	}
}
