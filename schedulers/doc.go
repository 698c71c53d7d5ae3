// Package schedulers holds sojourn's scheduling policies and the pure
// algorithmic cores they share: HFSP's virtual cluster (VirtualCluster),
// the Hadoop 1.x FairScheduler's fair shares (FairShares, ExactFairShares,
// PriorityWeight) and pool configuration (Pools, ParsePools), the
// CapacityScheduler's queue hierarchy (CapacityQueues,
// ParseCapacityQueues), and fluid processor-sharing and FSP reference
// schedulers (FluidPS, FluidFSP) that serve as test oracles for the HFSP
// paper's worked examples.
//
// The cores do no I/O (except LoadPools and LoadCapacityQueues reading a
// file) and do not depend on the replay engine: times are float64 seconds,
// job sizes are "serialized" slot-seconds, and every tie is broken by job
// id so that results are deterministic.
package schedulers
