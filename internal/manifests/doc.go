// Package manifests holds no code, only tests of the deployment files in
// docs/: that the Kubernetes Indexed Job (docs/sweep-k8s-job.yaml) is a
// well-formed batch/v1 Job with the fields an Indexed Job needs, and that
// it runs the same bench command line as the Slurm job array
// (docs/sweep.sbatch). The YAML is read by a small parser of the subset
// the manifest uses (block mappings and sequences, flow collections,
// quoted and plain scalars, comments), which refuses anything else.
package manifests
