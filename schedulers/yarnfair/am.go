package yarnfair

import (
	"math"
	"slices"

	"sojourn/replay"
)

// ChooseAM implements replay.AMScheduler: the node goes to the waiting
// ApplicationMaster of the most deserving runnable app, from the root
// down in each queue's order, whose leaf may run one more AM under its
// max-am-share (FSAppAttempt.assignContainer skips an app while
// isOverAMShareLimit) and whose queues' maxResources leave room for it.
func (p *YARNFair) ChooseAM(node int32, v *replay.View) int32 {
	p.sync(v)
	p.tick(v.Now(), true, v)
	am := v.AMRequest()
	return p.chooseAM(p.root, node, &am)
}

func (p *YARNFair) chooseAM(q *queue, node int32, am *replay.Resources) int32 {
	if q.amAsk == 0 {
		return -1
	}
	cmpf := p.comparator(q.pol)
	if !q.leaf {
		kids := make([]*queue, 0, len(q.children))
		for _, c := range q.children {
			if c.amAsk > 0 {
				kids = append(kids, c)
			}
		}
		slices.SortFunc(kids, func(a, b *queue) int { return cmpf(&a.sched, &b.sched) })
		for _, c := range kids {
			if j := p.chooseAM(c, node, am); j >= 0 {
				return j
			}
		}
		return -1
	}
	if !p.canRunAM(q, am) || !p.could(q, am, node) {
		return -1
	}
	var best *app
	for _, a := range q.apps {
		if a.amPending && (best == nil || cmpf(&a.sched, &best.sched) < 0) {
			best = a
		}
	}
	if best == nil {
		return -1
	}
	return best.id
}

// canRunAM reports whether leaf q may run one more ApplicationMaster:
// its AMs' resources with one more fit, resource by resource, in
// max-am-share of its fair share, where a fair share of 0 on a resource
// stands for min(the cluster's unallocated, q's maxResources), rounded
// up (FSLeafQueue.canRunAppAM and computeMaxAMResource).
func (p *YARNFair) canRunAM(q *queue, am *replay.Resources) bool {
	if math.Abs(q.amShare+1) < 0.0001 {
		return true
	}
	for r := 0; r < 2; r++ {
		base := q.fair[r]
		if base == 0 {
			base = p.cluster[r] - p.root.usage[r]
			if q.hasMax {
				base = min(base, q.max[r])
			}
		}
		limit := int64(math.Ceil(float64(base) * q.amShare))
		if q.amUsage[r]+am[r] > limit {
			return false
		}
	}
	return true
}
