package oracle

import (
	"math"

	"sojourn/replay"
)

// srpt's keys fall with time, each at the rate of the job's running
// tasks, so the order may change between any two heartbeats without an
// event. Rather than evaluate every running job's key at every heartbeat
// and sort again, each job holds a certificate: a time before which it
// cannot fall behind its successor in the order, whatever their keys do
// without an event. A heartbeat checks only the pairs whose certificate
// has come due and those an event touched, swapping neighbours found out
// of order and certifying the pairs that are not. Every other pair is in
// order by its certificate, so the result is the order that sorting the
// keys evaluated now gives (the keys are distinct with their tie-breaks),
// at a cost of the pairs that come close rather than of every job.
//
// The certificate of a before b bounds how fast b's key can fall (its
// running tasks), and a's key never rises without an event, so a stays
// ahead while b's fall has not used up the gap between them. The gap is
// taken less a margin of 2⁻⁴⁰ of the magnitudes in b's key (far above the
// rounding of its few operations, each exact to 2⁻⁵³), so that the keys
// as computed, not only as real numbers, stay in order.

// orderCert says its job is in order before its successor until at.
// ver matches the job's certVer while no newer certificate replaced it.
type orderCert struct {
	at  replay.Time
	job int32
	ver uint32
}

// sortByRemaining is sortJobs for srpt.
func (o *Oracle) sortByRemaining() {
	now := o.v.Now()
	if o.joined {
		// A job arrived or left: evaluate every key and sort, then
		// certify every pair.
		for _, j := range o.rekey {
			o.jobs[j].queued = false
		}
		o.rekey = o.rekey[:0]
		for _, j := range o.order {
			jb := &o.jobs[j]
			jb.key, jb.keyAt = o.remainingWork(j), now
		}
		o.moved, o.reorder = -2, true
		o.resort()
		o.certs = o.certs[:0]
		for i, j := range o.order {
			if i+1 < len(o.order) {
				o.certify(j, o.order[i+1], now)
			}
		}
		return
	}
	w := o.check[:0]
	for _, j := range o.rekey {
		jb := &o.jobs[j]
		jb.queued = false
		if !jb.live {
			continue
		}
		jb.keyAt = -1 // an event changed what it depends on
		w = append(w, j)
		if jb.pos > 0 {
			w = append(w, o.order[jb.pos-1])
		}
	}
	o.rekey = o.rekey[:0]
	for len(o.certs) > 0 && o.certs[0].at <= now {
		c := o.popCert()
		if o.jobs[c.job].certVer == c.ver {
			w = append(w, c.job)
		}
	}
	changed := false
	for len(w) > 0 {
		a := w[len(w)-1]
		w = w[:len(w)-1]
		ja := &o.jobs[a]
		p := int(ja.pos)
		if !ja.live || p+1 >= len(o.order) {
			continue
		}
		b := o.order[p+1]
		if !o.keyLess(b, a, now) {
			o.certify(a, b, now)
			continue
		}
		// Out of order: swap them, and check the three pairs that changed.
		o.order[p], o.order[p+1] = b, a
		ja.pos, o.jobs[b].pos = int32(p+1), int32(p)
		changed = true
		w = append(w, a, b)
		if p > 0 {
			w = append(w, o.order[p-1])
		}
	}
	o.check = w
	if changed {
		o.orderVer++
	}
	o.reorder, o.moved = false, -1
}

// freshKey is job j's key evaluated now, cached for the rest of the time
// step.
func (o *Oracle) freshKey(j int32, now replay.Time) float64 {
	jb := &o.jobs[j]
	if jb.keyAt != now {
		jb.key, jb.keyAt = o.remainingWork(j), now
	}
	return jb.key
}

// keyLess orders jobs a and b by their keys now, then submission and id,
// as resort does.
func (o *Oracle) keyLess(a, b int32, now replay.Time) bool {
	ka, kb := o.freshKey(a, now), o.freshKey(b, now)
	if ka != kb {
		return ka < kb
	}
	if sa, sb := o.jobs[a].submit, o.jobs[b].submit; sa != sb {
		return sa < sb
	}
	return a < b
}

// certify records until when job a, in order before its successor b now,
// stays before it without an event of either.
func (o *Oracle) certify(a, b int32, now replay.Time) {
	ja, jb := &o.jobs[a], &o.jobs[b]
	ja.certVer++
	n := float64(jb.runCount)
	kb := o.freshKey(b, now)
	if n == 0 || kb == 0 {
		// b's key stands still (or at 0, where a's is too: the keys
		// never fall below) and a's cannot rise.
		return
	}
	gap := kb - o.freshKey(a, now)
	t0 := now.Sec()
	far := t0 + gap/n // when b's key has fallen by the whole gap
	margin := (math.Abs(jb.remaining) + math.Abs(jb.liveClosed) + math.Abs(jb.segSum) + n*math.Abs(far)) * 0x1p-40
	at := now + 1 // the next heartbeat after this one
	if safe := t0 + (gap-margin)/n; safe > t0 {
		if safe >= float64(replay.Never/replay.Second) {
			return // beyond any trace
		}
		at = max(at, replay.Time(math.Floor(safe*float64(replay.Second)))-1)
	}
	o.pushCert(orderCert{at: at, job: a, ver: ja.certVer})
}

func (o *Oracle) pushCert(c orderCert) {
	h := append(o.certs, c)
	for k := len(h) - 1; k > 0 && h[k].at < h[(k-1)/2].at; k = (k - 1) / 2 {
		h[k], h[(k-1)/2] = h[(k-1)/2], h[k]
	}
	o.certs = h
}

func (o *Oracle) popCert() orderCert {
	h := o.certs
	top, n := h[0], len(h)-1
	h[0] = h[n]
	h = h[:n]
	for k, c := 0, 1; c < n; k, c = c, 2*c+1 {
		if c+1 < n && h[c+1].at < h[c].at {
			c++
		}
		if h[c].at >= h[k].at {
			break
		}
		h[k], h[c] = h[c], h[k]
	}
	o.certs = h
	return top
}
