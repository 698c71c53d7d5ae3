// Package queues reads the CapacityScheduler's queue hierarchy from lines
// root.QUEUE.PROPERTY = VALUE (capacity, maximum-capacity,
// user-limit-factor, minimum-user-limit-percent) and checks it as YARN
// does. Errors name the file and line.
package queues
