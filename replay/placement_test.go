package replay

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refPlacement is the placement drawn block by block the plain way, with
// rand.Rand on the same PCG: the first replica on any node, the second on
// a node of another rack, the third on another node of the second's rack,
// more on any node; a rack with no node left sends the rest elsewhere.
func refPlacement(e *Engine, ji int32, nm int) []int32 {
	rng := rand.New(rand.NewPCG(e.cfg.Seed, uint64(ji)+1))
	nodes, racks, rf := int32(e.cfg.Nodes), int32(e.racks), e.rf
	full := func(chosen []int32, rk int32) bool {
		for n := e.rackLo[rk]; n < e.rackLo[rk+1]; n++ {
			if !slices.Contains(chosen, n) {
				return false
			}
		}
		return true
	}
	reps := make([]int32, 0, nm*rf)
	for range nm {
		m := make([]int32, 0, rf)
		m = append(m, rng.Int32N(nodes))
		r2 := e.rackOf[m[0]]
		if rf > 1 && racks > 1 {
			for r1 := r2; r2 == r1; {
				r2 = rng.Int32N(racks)
			}
		}
		for len(m) < rf {
			var cand int32
			if len(m) < 3 {
				cand = e.rackLo[r2] + rng.Int32N(e.rackLo[r2+1]-e.rackLo[r2])
			} else {
				cand = rng.Int32N(nodes)
			}
			if !slices.Contains(m, cand) {
				m = append(m, cand)
			} else if full(m, r2) {
				r2 = rng.Int32N(racks)
			}
		}
		reps = append(reps, m...)
	}
	return reps
}

// checkRows checks that the row of every key of ix holds, in task order,
// the maps for which has(t, key) is true, with its cursor at its start.
func checkRows(t *testing.T, what string, ix *localIndex, keys, nm int, has func(t, key int32) bool) {
	t.Helper()
	for k := range int32(keys) {
		var want []int32
		for m := range int32(nm) {
			if has(m, k) {
				want = append(want, m)
			}
		}
		r := ix.find(k)
		var got []int32
		if r >= 0 {
			b := ix.bounds
			if b[2*r+1] != b[2*r] {
				t.Fatalf("%s key %d: cursor at %d, row starts at %d", what, k, b[2*r+1], b[2*r])
			}
			got = ix.tasks[b[2*r]:b[2*r+2]]
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s key %d: row %v, want %v", what, k, got, want)
		}
	}
}

// TestPlaceBlocksDrawsTheReference: the placement, counted as it is drawn
// for the usual three replicas or afterwards for other replications, gives
// the reference's replicas and a node index, and once asked for a rack
// index, whose every row holds exactly the maps with a replica on its
// node or rack, for clusters of racks of one
// node (a rack fills up), of one rack, of power-of-two sizes, and
// replications of one to as many as the nodes; and it leaves the scratch
// counters zero.
func TestPlaceBlocksDrawsTheReference(t *testing.T) {
	uneven := func(sizes ...int) []NodeSpec {
		var c []NodeSpec
		for r, n := range sizes {
			for range n {
				c = append(c, NodeSpec{Rack: int32(r), MapSlots: 1, ReduceSlots: 1})
			}
		}
		return c
	}
	cfgs := []Config{
		{Nodes: 100, NodesPerRack: 20},
		{Nodes: 24, NodesPerRack: 4, Seed: 5},
		{Nodes: 64, NodesPerRack: 16, Seed: 9},
		{Nodes: 40, NodesPerRack: 40, Seed: 3},
		{Nodes: 3, Seed: 1},
		{Nodes: 5, Seed: 2, Replication: 5},
		{Nodes: 3, NodesPerRack: 1, Seed: 2},
		{Nodes: 8, Cluster: uneven(1, 1, 3, 1, 2), Seed: 4},
		{Nodes: 9, Cluster: uneven(2, 1, 1, 4, 1), Seed: 6, Replication: 4},
		{Nodes: 300, NodesPerRack: 20, Seed: 7, Replication: 2},
		{Nodes: 30, NodesPerRack: 5, Seed: 8, Replication: 1},
		{Nodes: 3000, NodesPerRack: 40, Seed: 1},
	}
	for _, cfg := range cfgs {
		e, err := newEngine(4, &FIFO{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for ji, nm := range []int{5, 17, 60, 700} {
			name := fmt.Sprintf("%d nodes, %d racks, replication %d, %d maps", e.cfg.Nodes, e.racks, e.rf, nm)
			j := &job{nmaps: int32(nm)}
			e.placeBlocks(int32(ji), j)
			want := refPlacement(e, int32(ji), nm)
			if !slices.Equal(j.replicas, want) {
				t.Fatalf("%s: replicas differ from the reference", name)
			}
			if nm <= indexedMaps {
				if j.index != nil {
					t.Fatalf("%s: an index for a job of %d maps", name, nm)
				}
				continue
			}
			if j.index.byRack.lazy == nil || j.index.rackBuf != nil {
				t.Fatalf("%s: the rack index made before it was asked for", name)
			}
			e.buildRackIndex(j)
			if j.index.byRack.lazy != nil {
				t.Fatalf("%s: the rack index still waits after it was made", name)
			}
			for _, c := range [][]int32{e.cntNode, e.cntRack} {
				if slices.ContainsFunc(c, func(x int32) bool { return x != 0 }) {
					t.Fatalf("%s: scratch counters left nonzero", name)
				}
			}
			rf := e.rf
			on := func(m int32) []int32 { return j.replicas[int(m)*rf : int(m+1)*rf] }
			checkRows(t, name+" node", &j.index.byNode, e.cfg.Nodes, nm, func(m, n int32) bool {
				return slices.Contains(on(m), n)
			})
			checkRows(t, name+" rack", &j.index.byRack, e.racks, nm, func(m, rk int32) bool {
				return slices.ContainsFunc(on(m), func(n int32) bool { return e.rackOf[n] == rk })
			})
		}
	}
}
