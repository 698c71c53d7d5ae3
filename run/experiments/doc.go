// Package experiments reproduces the evaluation of the HFSP paper
// (Pastorelli et al., Section 4): each experiment is named after the
// paper's figure it redraws (fig3 … fig8) or the result it tabulates
// (tables), and can be run alone.
//
// An experiment builds its workloads, replays them under the policies it
// compares (cells run by run.Replay on a run.Pool), writes every run under
// its result directory (<results>/<experiment>/, out/results/ by default)
// as Arrow files with a manifest, reads the per-job results back, and
// computes its figures, tables and the paper's claims it can check as a
// reports.Section, saved next to the results as section.json. The reports
// package draws the sections.
package experiments
