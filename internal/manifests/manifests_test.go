package manifests

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sojourn/internal/shellwords"
)

const (
	k8sJob = "docs/sweep-k8s-job.yaml"
	sbatch = "docs/sweep.sbatch"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checker walks a parsed manifest, recording every problem with its path.
type checker struct {
	t *testing.T
}

func (c checker) errorf(path, format string, a ...any) {
	c.t.Helper()
	c.t.Errorf("%s: %s: %s", k8sJob, path, fmt.Sprintf(format, a...))
}

// mapping returns v as a mapping whose keys are all among known (the API
// server's strict decoding refuses unknown fields) and include required.
func (c checker) mapping(path string, v any, known, required []string) map[string]any {
	c.t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		c.errorf(path, "want a mapping, got %T", v)
		return map[string]any{}
	}
	for k := range m {
		if !slices.Contains(known, k) {
			c.errorf(path, "unknown field %q", k)
		}
	}
	for _, k := range required {
		if _, ok := m[k]; !ok {
			c.errorf(path, "missing required field %q", k)
		}
	}
	return m
}

func (c checker) list(path string, v any) []any {
	c.t.Helper()
	l, ok := v.([]any)
	if !ok {
		c.errorf(path, "want a list, got %T", v)
	}
	return l
}

func (c checker) str(path string, v any) string {
	c.t.Helper()
	s, ok := v.(string)
	if !ok || s == "" {
		c.errorf(path, "want a non-empty string, got %v (%T)", v, v)
	}
	return s
}

func (c checker) integer(path string, v any, min int64) int64 {
	c.t.Helper()
	n, ok := v.(int64)
	if !ok || n < min {
		c.errorf(path, "want an integer >= %d, got %v (%T)", min, v, v)
	}
	return n
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

func (c checker) name(path string, v any) string {
	c.t.Helper()
	s := c.str(path, v)
	if !dnsLabel.MatchString(s) {
		c.errorf(path, "%q is not a DNS-1123 label", s)
	}
	return s
}

// quantity parses a Kubernetes resource quantity ("2", "500m", "1Gi")
// into thousandths of a unit.
func quantity(v any) (int64, bool) {
	s := fmt.Sprint(v)
	mult := map[string]int64{"": 1000, "m": 1, "k": 1e6, "M": 1e9, "G": 1e12, "T": 1e15,
		"Ki": 1 << 10 * 1000, "Mi": 1 << 20 * 1000, "Gi": 1 << 30 * 1000, "Ti": 1 << 40 * 1000}
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], s[i:]
	}
	f, err := strconv.ParseFloat(num, 64)
	m, ok := mult[unit]
	if err != nil || !ok || f < 0 {
		return 0, false
	}
	return int64(f * float64(m)), true
}

// job is what the command-line test needs from the manifest.
type job struct {
	completions int64
	args        []string
	env         map[string]map[string]any // the container's env, by name
	mounts      map[string]string         // mount path -> volume name
	readOnly    map[string]bool           // mount path -> read-only
	volumes     map[string]map[string]any // volume name -> its source
}

// checkJob validates the manifest against the parts of the batch/v1 Job
// schema it uses, and the rules the API server applies to an Indexed Job.
func checkJob(t *testing.T, doc any) job {
	c := checker{t}
	var j job
	top := c.mapping("", doc, []string{"apiVersion", "kind", "metadata", "spec"}, []string{"apiVersion", "kind", "metadata", "spec"})
	if top["apiVersion"] != "batch/v1" {
		c.errorf("apiVersion", "%v, want batch/v1", top["apiVersion"])
	}
	if top["kind"] != "Job" {
		c.errorf("kind", "%v, want Job", top["kind"])
	}
	meta := c.mapping("metadata", top["metadata"], []string{"name", "namespace", "labels", "annotations"}, []string{"name"})
	// The Job's name becomes a pod label value: a DNS label of at most 63.
	c.name("metadata.name", meta["name"])

	spec := c.mapping("spec", top["spec"], []string{"completionMode", "completions", "parallelism", "backoffLimit",
		"backoffLimitPerIndex", "maxFailedIndexes", "activeDeadlineSeconds", "ttlSecondsAfterFinished", "suspend",
		"podFailurePolicy", "successPolicy", "podReplacementPolicy", "manualSelector", "selector", "template"},
		[]string{"completionMode", "completions", "template"})
	if spec["completionMode"] != "Indexed" {
		c.errorf("spec.completionMode", "%v, want Indexed", spec["completionMode"])
	}
	// An Indexed Job needs completions (its indexes are 0 to completions-1),
	// at most 100,000 of them.
	j.completions = c.integer("spec.completions", spec["completions"], 1)
	if j.completions > 100000 {
		c.errorf("spec.completions", "%d, at most 100000 for an Indexed Job", j.completions)
	}
	if p, ok := spec["parallelism"]; ok {
		if n := c.integer("spec.parallelism", p, 1); n > j.completions {
			c.errorf("spec.parallelism", "%d pods for %d completions", n, j.completions)
		}
	}
	for _, f := range []string{"backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes", "activeDeadlineSeconds", "ttlSecondsAfterFinished"} {
		if v, ok := spec[f]; ok {
			c.integer("spec."+f, v, 0)
		}
	}

	tmpl := c.mapping("spec.template", spec["template"], []string{"metadata", "spec"}, []string{"spec"})
	pod := c.mapping("spec.template.spec", tmpl["spec"], []string{"restartPolicy", "containers", "initContainers",
		"volumes", "nodeSelector", "affinity", "tolerations", "serviceAccountName", "securityContext",
		"terminationGracePeriodSeconds", "priorityClassName", "imagePullSecrets", "topologySpreadConstraints"},
		[]string{"restartPolicy", "containers"})
	// A Job's pods may not restart Always; a per-index backoff limit needs
	// Never.
	switch rp := pod["restartPolicy"]; {
	case rp != "Never" && rp != "OnFailure":
		c.errorf("spec.template.spec.restartPolicy", "%v, want Never or OnFailure", rp)
	case spec["backoffLimitPerIndex"] != nil && rp != "Never":
		c.errorf("spec.template.spec.restartPolicy", "%v: backoffLimitPerIndex needs Never", rp)
	}

	j.volumes = map[string]map[string]any{}
	for i, v := range c.list("spec.template.spec.volumes", pod["volumes"]) {
		path := fmt.Sprintf("spec.template.spec.volumes[%d]", i)
		vol := c.mapping(path, v, []string{"name", "persistentVolumeClaim", "configMap", "secret", "emptyDir", "nfs", "hostPath"}, []string{"name"})
		name := c.name(path+".name", vol["name"])
		if len(vol) != 2 {
			c.errorf(path, "want exactly one volume source, got %d fields", len(vol))
		}
		for k, src := range vol {
			if k != "name" {
				j.volumes[name] = map[string]any{k: src}
			}
		}
	}

	containers := c.list("spec.template.spec.containers", pod["containers"])
	if len(containers) != 1 {
		t.Fatalf("%s: want one container, got %d", k8sJob, len(containers))
	}
	path := "spec.template.spec.containers[0]"
	ctr := c.mapping(path, containers[0], []string{"name", "image", "command", "args", "env", "envFrom", "resources",
		"volumeMounts", "workingDir", "imagePullPolicy", "securityContext"}, []string{"name", "image"})
	c.name(path+".name", ctr["name"])
	c.str(path+".image", ctr["image"])
	if ctr["command"] == nil && ctr["args"] == nil {
		c.errorf(path, "neither command nor args: the image's entrypoint would run bare")
	}
	for _, f := range []string{"command", "args"} {
		if v, ok := ctr[f]; ok {
			for i, a := range c.list(path+"."+f, v) {
				j.args = append(j.args, c.str(fmt.Sprintf("%s.%s[%d]", path, f, i), a))
			}
		}
	}
	j.env = map[string]map[string]any{}
	if v, ok := ctr["env"]; ok {
		for i, e := range c.list(path+".env", v) {
			p := fmt.Sprintf("%s.env[%d]", path, i)
			env := c.mapping(p, e, []string{"name", "value", "valueFrom"}, []string{"name"})
			j.env[c.str(p+".name", env["name"])] = env
		}
	}
	res := c.mapping(path+".resources", ctr["resources"], []string{"requests", "limits"}, nil)
	req := c.mapping(path+".resources.requests", res["requests"], []string{"cpu", "memory", "ephemeral-storage"}, nil)
	lim := c.mapping(path+".resources.limits", res["limits"], []string{"cpu", "memory", "ephemeral-storage"}, nil)
	for k, l := range lim {
		lq, ok := quantity(l)
		if !ok {
			c.errorf(path+".resources.limits."+k, "%v is not a quantity", l)
		}
		if r, ok := req[k]; ok {
			if rq, ok := quantity(r); !ok || rq > lq {
				c.errorf(path+".resources.requests."+k, "%v: not a quantity, or above the limit %v", r, l)
			}
		}
	}
	j.mounts, j.readOnly = map[string]string{}, map[string]bool{}
	for i, v := range c.list(path+".volumeMounts", ctr["volumeMounts"]) {
		p := fmt.Sprintf("%s.volumeMounts[%d]", path, i)
		m := c.mapping(p, v, []string{"name", "mountPath", "readOnly", "subPath"}, []string{"name", "mountPath"})
		name, mp := c.str(p+".name", m["name"]), c.str(p+".mountPath", m["mountPath"])
		if _, ok := j.volumes[name]; !ok {
			c.errorf(p+".name", "no volume %q", name)
		}
		if !strings.HasPrefix(mp, "/") {
			c.errorf(p+".mountPath", "%q is not absolute", mp)
		}
		j.mounts[mp], j.readOnly[mp] = name, m["readOnly"] == true
	}
	return j
}

// TestK8sJob checks docs/sweep-k8s-job.yaml as far as can be done without
// a cluster: a batch/v1 Indexed Job with every field where the API server
// wants it, and its volumes, mounts, ConfigMap and command line agreeing.
func TestK8sJob(t *testing.T) {
	src := read(t, k8sJob)
	doc, err := parseYAML(src)
	if err != nil {
		t.Fatalf("%s: %v", k8sJob, err)
	}
	j := checkJob(t, doc)
	if t.Failed() {
		return
	}
	cmd := parseArgs(t, k8sJob, j.args)

	// The sweep file comes from the ConfigMap the header's kubectl
	// create configmap line makes, mounted where --out is not.
	m := regexp.MustCompile(`kubectl create configmap (\S+) --from-file=([^=\s]+)=`).FindStringSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no kubectl create configmap line in the header", k8sJob)
	}
	dir, file := filepath.Dir(cmd.sweep), filepath.Base(cmd.sweep)
	vol := j.volumes[j.mounts[dir]]
	if cm, _ := vol["configMap"].(map[string]any); cm == nil || cm["name"] != m[1] || file != m[2] {
		t.Errorf("%s: the sweep file %s is not key %s of ConfigMap %s mounted at %s (volume %v)", k8sJob, cmd.sweep, m[2], m[1], dir, vol)
	}
	var outMount string
	for mp := range j.mounts {
		if strings.HasPrefix(cmd.out+"/", mp+"/") && len(mp) > len(outMount) {
			outMount = mp
		}
	}
	if outMount == "" || j.readOnly[outMount] || j.volumes[j.mounts[outMount]]["persistentVolumeClaim"] == nil {
		t.Errorf("%s: --out %s is not on a writable persistent volume (mounts %v)", k8sJob, cmd.out, j.mounts)
	}

	// Shard i of n: i the completion index, n the completions.
	if cmd.index != "$(JOB_COMPLETION_INDEX)" {
		t.Errorf("%s: shard index %q, want $(JOB_COMPLETION_INDEX)", k8sJob, cmd.index)
	}
	if cmd.count != strconv.FormatInt(j.completions, 10) {
		t.Errorf("%s: shard count %s but %d completions", k8sJob, cmd.count, j.completions)
	}
	// --parallel reads the container's CPU limit through the downward API.
	if name, ok := strings.CutPrefix(cmd.parallel, "$("); !ok {
		t.Errorf("%s: --parallel %q, want the CPU limit from the environment", k8sJob, cmd.parallel)
	} else if e := j.env[strings.TrimSuffix(name, ")")]; e == nil {
		t.Errorf("%s: --parallel %s: no such variable in the container's env", k8sJob, cmd.parallel)
	} else if vf, _ := e["valueFrom"].(map[string]any); vf == nil || fmt.Sprint(vf["resourceFieldRef"]) != "map[resource:limits.cpu]" {
		t.Errorf("%s: --parallel %s is not the container's limits.cpu: %v", k8sJob, cmd.parallel, e)
	}
}

// command is a bench sweep command line, split into its parts; the flags
// it has, in order, are in flags.
type command struct {
	flags                  []string
	index, count, parallel string
	out, sweep             string
}

// parseArgs reads bench's arguments: sweep --shard I/N --parallel P --out
// DIR FILE, the flags in any order.
func parseArgs(t *testing.T, where string, args []string) command {
	t.Helper()
	var c command
	if len(args) < 2 || args[0] != "sweep" {
		t.Fatalf("%s: bench %s: want bench sweep", where, strings.Join(args, " "))
	}
	rest := args[1:]
	for len(rest) > 1 && strings.HasPrefix(rest[0], "--") {
		flag, val := rest[0], rest[1]
		c.flags = append(c.flags, flag)
		switch flag {
		case "--shard":
			var ok bool
			if c.index, c.count, ok = strings.Cut(val, "/"); !ok {
				t.Errorf("%s: --shard %q, want i/n", where, val)
			}
		case "--parallel":
			c.parallel = val
		case "--out":
			c.out = val
		default:
			t.Errorf("%s: unexpected flag %s", where, flag)
		}
		rest = rest[2:]
	}
	if len(rest) != 1 {
		t.Fatalf("%s: want one sweep file after the flags, got %q", where, rest)
	}
	c.sweep = rest[0]
	return c
}

// slurmArgs reads the bench command line of docs/sweep.sbatch: the words
// after "$BENCH" on its srun line (with its continuation lines), shell
// quotes removed.
func slurmArgs(t *testing.T, src string) []string {
	t.Helper()
	src = strings.ReplaceAll(src, "\\\n", " ")
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "srun ") {
			continue
		}
		_, after, ok := strings.Cut(l, `"$BENCH" `)
		if !ok {
			t.Fatalf("%s: the srun line does not run \"$BENCH\": %s", sbatch, l)
		}
		words, err := shellwords.Split(after)
		if err != nil {
			t.Fatalf("%s: %v", sbatch, err)
		}
		return words
	}
	t.Fatalf("%s: no srun line", sbatch)
	return nil
}

// TestSameCommandLine checks that the Kubernetes Job and the Slurm array
// run bench with the same flags, in the same order, and each gives the
// shard index and count from its own scheduler: the completion index and
// the completions, the array task id and the array's size.
func TestSameCommandLine(t *testing.T) {
	doc, err := parseYAML(read(t, k8sJob))
	if err != nil {
		t.Fatalf("%s: %v", k8sJob, err)
	}
	j := checkJob(t, doc)
	k8s := parseArgs(t, k8sJob, j.args)
	src := read(t, sbatch)
	slurm := parseArgs(t, sbatch, slurmArgs(t, src))
	if !slices.Equal(k8s.flags, slurm.flags) {
		t.Errorf("flags differ: %s has %v, %s %v", k8sJob, k8s.flags, sbatch, slurm.flags)
	}
	if !slices.Contains(slurm.flags, "--shard") {
		t.Errorf("%s runs no shard", sbatch)
	}
	if !strings.HasPrefix(slurm.index, "${SLURM_ARRAY_TASK_ID") {
		t.Errorf("%s: shard index %q, want the array task id", sbatch, slurm.index)
	}
	if slurm.parallel != "${SLURM_CPUS_PER_TASK:-1}" {
		t.Errorf("%s: --parallel %q, want the task's CPUs", sbatch, slurm.parallel)
	}
	// The shard count's default is the size of the #SBATCH array, whose
	// ids start at 0.
	arr := regexp.MustCompile(`(?m)^#SBATCH --array=0-(\d+)$`).FindStringSubmatch(src)
	def := regexp.MustCompile(`(?m)^SHARDS=\$\{SHARDS:-(\d+)\}$`).FindStringSubmatch(src)
	if arr == nil || def == nil || slurm.count != "$SHARDS" {
		t.Fatalf("%s: want #SBATCH --array=0-N, SHARDS=${SHARDS:-N+1} and --shard .../$SHARDS", sbatch)
	}
	last, _ := strconv.Atoi(arr[1])
	if n, _ := strconv.Atoi(def[1]); n != last+1 {
		t.Errorf("%s: SHARDS defaults to %d for an array of %d tasks", sbatch, n, last+1)
	}
}

// TestParseYAML checks the reader on the constructs it accepts and
// refuses.
func TestParseYAML(t *testing.T) {
	doc, err := parseYAML(`# c
a: 1 # n
b: "x # y"
c: ['p', "q", r s]
d: {k: v, "l": 2,
    m: [1, 2]}
e:
- f: g
  h:
    - i
    -
      j: k
l: true
n:
`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": int64(1), "b": "x # y", "c": []any{"p", "q", "r s"},
		"d": map[string]any{"k": "v", "l": int64(2), "m": []any{int64(1), int64(2)}},
		"e": []any{map[string]any{"f": "g", "h": []any{"i", map[string]any{"j": "k"}}}},
		"l": true, "n": nil}
	if fmt.Sprint(doc) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", doc, want)
	}
	for _, bad := range []string{"a: 1\na: 2\n", "a: [1, 2\n", "a: &x 1\n", "a: |\n  x\n", "a: 1\n  b: 2\n", "a: 'x\n", "a: 1\n---\nb: 2\n", "a:\n\t- 1\n"} {
		if _, err := parseYAML(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
