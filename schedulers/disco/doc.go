// Package disco is the preemptive fair scheduler of Souza and Garcia
// (Disco): kill evenly to make room for a new job's fair share, hold a
// job's slots between its phases, and serve the most unfavoured job.
package disco
