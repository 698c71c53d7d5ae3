// Package capacity is YARN's CapacityScheduler mapped onto Hadoop 1.x
// slots: hierarchical queues with guaranteed and maximum capacities, user
// limits, FIFO order within a leaf, and optional kill preemption for
// queues starved of their guarantee.
package capacity
