// Package easy is the two-level scheduler of Sudha Sadasivam and Anjali:
// EASY backfilling admits jobs on their user-estimated run times, and the
// admitted jobs share slots by deficit fair sharing.
package easy
