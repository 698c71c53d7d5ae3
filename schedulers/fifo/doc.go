// Package fifo is Hadoop 1.x's default scheduler, JobQueueTaskScheduler:
// one queue of jobs by priority and submit time, served in order on every
// heartbeat, with Hadoop's load factor and padding rules.
package fifo
