// Package fluid is two fluid reference schedulers, PS (max-min processor
// sharing with parallelism caps) and FSP (serve jobs in order of their
// completion under PS), written as direct event loops independent of the
// virtual cluster so that they can be its test oracle and reproduce the
// HFSP paper's worked examples.
package fluid
