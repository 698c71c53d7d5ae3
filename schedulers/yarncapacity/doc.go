// Package yarncapacity is YARN's CapacityScheduler on sojourn's container
// model (replay.ContainerModel), policy yarn-capacity: hierarchical queues
// with guaranteed and maximum capacities, user limits, delay scheduling
// counted in missed scheduling opportunities, the memory-only or the
// dominant-resource calculator, and optionally the
// ProportionalCapacityPreemptionPolicy. Each option is named after the
// YARN property it stands for; its default is YARN's (Hadoop 3.x, where
// versions differ the earlier one is said).
//
// # Queues
//
// The hierarchy comes from the file named by option queues, read by
// package queues (the slot-model capacity policy's parser), one setting a
// line, '#' starting a comment, keys optionally prefixed with
// yarn.scheduler.capacity.:
//
//	root.prod.capacity = 70                    # percent of the parent
//	root.prod.maximum-capacity = 100           # percent of the parent (default 100)
//	root.prod.user-limit-factor = 2            # (default 1)
//	root.prod.minimum-user-limit-percent = 50  # (default 100)
//	root.prod.maximum-am-resource-percent = 0.2  # (default: the option)
//	root.dev.capacity = 30
//	root.dev.adhoc.capacity = 100              # a child of root.dev
//
// Every queue but root needs a capacity, and the capacities of a queue's
// children sum to 100. With no file there is one leaf, root.default,
// with 100%. A queue's guarantee is its absolute capacity (the product of
// the percentages down from root) times the cluster's resources, its
// limit likewise with the maximum capacities.
//
// A job runs in the leaf queue its pool names (View.Job(j).Pool(), the
// leaf's name or full path); a pool that names no leaf goes to the leaf
// called default. If there is no such leaf, a job whose pool names no
// leaf is an error: at Start for the jobs the engine has read by then
// (all of them when the trace is in memory), at the job's arrival (the
// next heartbeat returns it) for a streamed trace's later jobs.
//
// A job's user, for the user limits, is its pool by default (the traces
// have no user column): option user-by, as in the slot-model capacity
// policy, may make it the job's name up to its first '-' or the job
// itself. When queues are named after pools, each leaf then has one
// user, and with YARN's default user-limit-factor of 1 that user, and so
// the queue, cannot hold more than the queue's guarantee.
//
// # ApplicationMasters
//
// A job is an application from its submission (View.Submitted), pending
// in its leaf until LeafQueue.activateApplications activates it: a
// leaf's pending apps, in FIFO order, are activated while the AMs of its
// active apps with theirs stay within the leaf's AM limit, and their
// user's within the user AM limit; an app that does not fit is passed
// over for the next, and a leaf with no active app (or whose AMs hold
// nothing) activates one anyway. Activation is tried when an app is
// submitted and when one finishes, as in YARN. With p the leaf's
// maximum-am-resource-percent (its line in the queues file, else option
// maximum-am-resource-percent, yarn.scheduler.capacity.maximum-am-
// resource-percent, default 0.1) and G its guarantee normalised up to
// the minimum allocation:
//
//   - the leaf's AM limit (calculateAndGetAMResourceLimitPerPartition) is
//     p × its current limit, or p × G when G does not fit in it,
//     normalised up to the minimum allocation (multiplyAndNormalizeUp:
//     memory × p rounded to the nearest MiB, then up); the current limit
//     is what ParentQueue.getResourceLimitsOfChild passes down: the
//     parent's less what the parent uses plus what the leaf uses, at most
//     the leaf's maximum capacity, from the cluster at the root;
//   - the user AM limit (getUserAMResourceLimitPerPartition) is p ×
//     max(minimum-user-limit-percent / 100, 1 / active users) ×
//     user-limit-factor × G, normalised up, at most the leaf's AM limit.
//     With the default minimum-user-limit-percent of 100 it is p × G ×
//     user-limit-factor whatever the users; when a leaf's jobs are one
//     user (user-by pool, queues named after pools) it binds before the
//     leaf's limit as soon as the leaf borrows beyond its guarantee.
//
// An activated app's AM asks for a container (the policy places it,
// replay.AMScheduler): at a node's heartbeat, before any task, the first
// activated app waiting for its AM found from the root down, children in
// the order they are offered a node, in a leaf in FIFO order, whose
// queues stay within their maximum capacities with it and whose user is
// not above the user limit. From then on the AM's container counts in
// the usage of the application, its user and its queues until the job
// ends. A user with an app asking for its AM is an active user for the
// user limits.
//
// # Resource calculator
//
// Option resource-calculator (yarn.scheduler.capacity.resource-calculator):
//
//   - default, YARN's default DefaultResourceCalculator: memory alone
//     counts. The policy tells the engine so (replay.ResourceChooser): a
//     container fits a node on memory, and vcores may be overcommitted (the
//     engine then runs the node's tasks slower, sharing its CPUs).
//   - dominant, the DominantResourceCalculator: every resource counts,
//     for fits too, and usages and capacities are compared on dominant
//     shares: an amount's size is the largest of its shares of the
//     cluster's resources.
//
// Everything below is computed on sizes: memory in MiB (default), or the
// dominant share times the cluster's memory (dominant), so that both
// measure the cluster in the same unit.
//
// # Assignment on a heartbeat
//
// On each node heartbeat the policy assigns one container at a time, as
// CapacityScheduler.allocateContainersToNode asks the root queue again
// after each assignment:
//
//   - From the root down, a queue offers the node to its children in
//     increasing order of used capacity relative to their guarantee (a
//     queue with no guarantee last), ties by name; a child that assigns
//     nothing passes the offer on to the next.
//   - A leaf offers the node to its applications with a container to ask
//     for, in the order of its ordering policy (option ordering-policy,
//     yarn.scheduler.capacity.<queue>.ordering-policy, for every leaf):
//     fifo (FifoOrderingPolicy: priority, then submit time) or fair
//     (FairOrderingPolicy: least memory used first, the AM's included;
//     ties in FIFO order).
//   - An application's requests come in order, maps then reduces, and it
//     is given its first one or nothing: while it has a map to launch it
//     gets a map (under delay scheduling, below) or is passed over; then
//     its reduces, once past slow-start (the engine's Config.SlowStart).
//     MapReduce asks for reduces at a higher request priority than maps
//     but its ApplicationMaster ramps them up and preempts its own
//     reduces when maps starve; the engine has neither, and in their
//     place makes a job's reduces eligible only once none of its maps
//     waits for a container. Maps come first here, so that a map
//     re-queued after a kill is not kept waiting behind its own job's
//     reduces.
//   - An application is passed over when its container does not fit what
//     the node has left, when it would take one of its queues past its
//     maximum capacity, when it would take its user past the user limit,
//     or when its map declines the node for locality. (YARN skips the rest
//     of the queue when the queue's limit binds; here a smaller container
//     further down may still be given.) An application passed over on a
//     heartbeat is not offered the node again until the next heartbeat.
//   - The heartbeat goes on while the node has at least the minimum
//     allocation left and some task waits, with
//     yarn.scheduler.capacity.per-node-heartbeat.* options:
//     multiple-assignments (multiple-assignments-enabled, default true:
//     otherwise one container a heartbeat), maximum-assignments
//     (maximum-container-assignments, default -1, no limit, as in Hadoop
//     3.0; later versions default to 100), maximum-offswitch-assignments
//     (default 1): an off-switch container ends the heartbeat once that
//     many were given. A reduce asks for any node: it is an off-switch
//     container.
//   - There are no reservations: a container that does not fit is not
//     reserved on the node.
//
// # Limits and elasticity
//
// Maximum capacity: a container is given only if every queue from the
// leaf to the root stays within its maximum capacity with it. Below that a
// queue takes whatever its siblings leave idle: elasticity, the guarantee
// being what it gets first when it asks (it is offered nodes first while
// below it) and what preemption restores.
//
// User limit, LeafQueue.computeUserLimit as in Hadoop 2.7, for a request
// r: with C the leaf's guarantee rounded up to the minimum allocation (at
// least r), the leaf's current capacity C while its use is below C and
// use + r beyond, and n the users with an application asking for
// containers, a user may hold
//
//	max(⌈current / n⌉, ⌈current × minimum-user-limit-percent / 100⌉),
//
// at most C × user-limit-factor, rounded up to the minimum allocation; a
// container is refused only while the user's use is already above it
// (LeafQueue.canAssignToUser leaves the request out), so a user may end
// one container past the limit.
//
// # Delay scheduling
//
// RegularContainerAllocator's: an application counts the scheduling
// opportunities its maps missed since its last node-local or rack-local
// map, at most one per heartbeat (YARN counts every offer). An
// opportunity is an offer of a node where its map container fits and the
// limits allow it, and that it declines for locality or takes off-switch
// (off-switch containers do not restart the count). With m missed
// opportunities and N the cluster's nodes:
//
//   - a node-local map is taken at once, and m restarts from 0;
//   - a rack-local map once m ≥ min(N, node-locality-delay)
//     (yarn.scheduler.capacity.node-locality-delay, default 40), and m
//     restarts from 0 (rack-locality-full-reset, true in YARN);
//   - any map (off-switch: the container goes to the application's best
//     map for the node, rack-local if it has one) once m ≥ min(N,
//     node-locality-delay + rack-locality-additional-delay) when that
//     option (yarn.scheduler.capacity.rack-locality-additional-delay) is
//     0 or more. At its default, -1, YARN's locality wait factor decides:
//     m + 1 > min(N, P × min(1, (L − 1) / N)), where P is the
//     application's pending maps and L the number of resource names its
//     maps ask for: the nodes holding their blocks, those nodes' racks,
//     and "any". The MapReduce ApplicationMaster lowers a name's count to
//     zero rather than withdrawing it, so L is every node and rack the
//     job's blocks are on, plus one, fixed at the job's start.
//
// # Preemption
//
// Option preemption (yarn.resourcemanager.scheduler.monitor.enable,
// default false) runs the ProportionalCapacityPreemptionPolicy; its other
// options are yarn.resourcemanager.monitor.capacity.preemption.*. Every
// monitoring-interval (default 3 s; a round runs at the first heartbeat
// at or after each multiple of it, and while a round may find something
// full nodes keep heartbeating, replay.Preempter):
//
//  1. The ideal assignment, level by level from the root, whose ideal is
//     the cluster: among a parent's children (those with a guarantee
//     first, then those without, equally), each starts from min(use,
//     guarantee); while some want more (use + pending containers) and
//     some of the parent's ideal is left, the ones least served (ideal /
//     guarantee) are offered what is left in proportion to their
//     guarantees among those wanting more, and each accepts up to its
//     maximum capacity, its use + pending and, for a leaf, the larger of
//     its guarantee and its use.
//     A leaf's pending containers are its activated apps': an app's AM
//     until it starts, then its tasks'; a waiting AM is demand, and the
//     room a kill makes goes to it at the node's next heartbeat.
//  2. Each queue should give back its use above max(ideal, min(use +
//     pending, guarantee)), all of them scaled down so that the round
//     takes at most total-preemption-per-round (default 0.1) of the
//     cluster. A leaf gives back only while its use is above (1 +
//     max-ignored-over-capacity (0.1)) × its guarantee, and only
//     natural-termination-factor (0.2) of it per round (rounded up).
//  3. Containers are selected leaf by leaf (in the file's order): its
//     applications last in the leaf's order first (the latest submitted
//     for fifo, the largest user of memory for fair), and in each its maps
//     before its reduces (YARN takes the lowest request priority first,
//     and MapReduce's maps have a lower one than its reduces), the most
//     recently launched first, while the leaf has something to give back;
//     a container larger than what the round may still take is skipped.
//     ApplicationMasters are never taken.
//  4. A container selected for the first time is marked with the round's
//     time; one selected again max-wait-before-kill (default 15 s) or more
//     after its mark is killed (at its node's next heartbeat: the policy
//     acts on a node through its heartbeat) and its task is pending again.
//     A mark not renewed for twice that long is forgotten.
//
// Not modelled: reservations, node labels, application priorities beyond
// Hadoop's job priority, intra-queue preemption, the per-user cap on a
// leaf's pending containers in the preemption policy, users' weights, and
// the caching of a leaf's current limit (YARN's AM limit uses the one of
// the leaf's last assignment, here it is computed at activation).
package yarncapacity
