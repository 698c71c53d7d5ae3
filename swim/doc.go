// Package swim synthesizes MapReduce workloads in the manner of SWIM (the
// Statistical Workload Injector for MapReduce) from the Facebook 2009 and
// 2010 traces, as sojourn traces (package traces).
//
// # Pipeline
//
// Generate turns a Config into a *traces.Trace in five steps:
//
//  1. Jobs (byte counts) come from a profile or from a SWIM workload file.
//     A Profile (fb2009, fb2010: the HFSP paper's two workloads, Section
//     4.1 and Table 1) draws each job from an embedded Model, within one of
//     the paper's bins, in the paper's proportions. A Source (ReadTSV,
//     ParseTSV) is resampled with SWIM's window sampler (Sampler, SampleAt),
//     the algorithm of WorkloadSynthesis.pl.
//  2. Bytes are scaled by nodes/original nodes, truncated (ScaleBytes), as
//     SWIM scales a workload to a smaller cluster.
//  3. A task rule cuts each job into maps and reduces (TaskConfig.Shape):
//     RuleNatural, or RuleSWIM, SWIM's own replay rules (MaxSeqFile).
//  4. A DurationModel gives each task a run time from its bytes and each
//     reduce its shuffle bytes.
//  5. Submit times follow the trace (its gaps, optionally rescaled to a
//     mean) or an exponential law.
//
// Every parameter is recorded in the trace's metadata under sorted
// "generator." keys, and every random draw comes from PCG streams derived
// from Config.Seed: the same Config gives the same file, byte for byte.
// Building blocks take an injected *rand.Rand.
//
// # Profiles
//
// The paper's bins are task counts on its 100-node cluster. They are only
// reachable from the samples' bytes unscaled, so a profile classifies each
// drawn job by its reference shape (ReferenceTasks: the natural rule with
// 128 MiB blocks and 128 MiB per reduce, on the model's bytes) and scales
// it by nodes/original nodes with original nodes 100 by default. Class
// counts are allocated by largest remainder, so the paper's own job counts
// (100 and 93) give Table 1's counts exactly; the classes are shuffled.
// Within a class, the input is drawn from the input range of the class's
// map counts and the draw is repeated until the reduce count fits: an exact
// draw from the model conditioned on the class. fb2010 keeps the paper's
// "small jobs filtered out": all its bins need more than 400 maps (the
// cluster's map slots) and a shuffle, and jobs with fewer than 10 reduces
// get 10. The top bins end at MaxProfileMaps maps and MaxProfileReduces
// reduces, which keeps fb2010 to about five hours of map work on 400 slots.
// Exponential gaps are drawn through stratified uniforms, so the mean gap
// of even 100 jobs is close to the profile's.
//
// # The embedded models
//
// modelFB2009 and modelFB2010 (model_fb2009.go, model_fb2010.go) are
// generated code. Each is Fit, with the default FitOptions, applied to the
// concatenated records of two SWIM samples, as listed in EmbeddedFits:
//
//   - FB-2009: FB-2009_samples_24_times_1hr_0.tsv and _1.tsv (12,532 jobs);
//   - FB-2010: FB-2010_samples_24_times_1hr_0.tsv and
//     FB-2010_samples_24_times_1hr_withInputPaths_0.tsv (49,870 jobs).
//
// Fit sorts the jobs by input bytes, fits a quantile table of ln(1+input)
// on FineGrid, cuts the jobs into 23 strata by input quantile
// (DefaultStrata), and fits in each stratum the probability of a zero
// shuffle, the shuffle as a Link from the input (least-squares slope in
// [0, 1] plus residual quantiles on CoarseGrid), four output groups by the
// quantile of the shuffle residual, each with its probability of no output
// and a Link from the shuffle, and for map-only jobs the probability of no
// output and a Link from the input; and a quantile table of the gaps. See
// Fit for the exact steps. To redo the fit after changing Fit or the
// options, with the samples in ../shared/data/swim beside the repository:
//
//	go test ./swim -run TestRefit -refit
//
// Without -refit, TestRefit fails if the committed models differ from a
// fresh fit, and TestModelMatchesSamples compares the models with the
// samples by two-sample Kolmogorov–Smirnov statistics. Both skip when the
// samples are absent. The samples themselves are BSD-licensed data that
// must not be copied into this repository; tests use made-up rows.
package swim
