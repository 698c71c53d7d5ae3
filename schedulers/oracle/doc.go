// Package oracle is the oracle baselines, policies that know what no real
// scheduler knows (true task durations, exact attained service): srpt
// (shortest remaining processing time), las (least attained service) and
// ps (processor sharing). They share one machinery, Oracle, which ranks
// jobs by a key and preempts towards the targets the order implies, so
// they share one package, with a const name and a Policy each.
package oracle
