package layout

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "sojourn"

// cores are the pure algorithmic packages under schedulers/ that policies
// build on. Every other folder directly under schedulers/, but internal,
// is a policy.
var cores = []string{"fairshare", "fluid", "pools", "queues", "vcluster"}

// layer says which sojourn packages a package may import (its tests
// aside): each entry is a package path, or a prefix ending in "/...".
// It returns ok false for a package the layout does not know.
func layer(pkg string) (allowed []string, ok bool) {
	toolkit := []string{"sojourn/internal/..."}
	below := func(extra ...string) []string { return append(extra, toolkit...) }
	switch {
	case under(pkg, "sojourn/internal"):
		return toolkit, true
	case pkg == "sojourn/traces":
		return toolkit, true
	case under(pkg, "sojourn/traces"):
		// Workload formats beside the trace format (import, export):
		// the trace format and its siblings, nothing above.
		return below("sojourn/traces/..."), true
	case pkg == "sojourn/swim", pkg == "sojourn/replay":
		return below("sojourn/traces"), true
	case pkg == "sojourn/replay/clusterfile":
		// Cluster files: text in, a description out; the engine's
		// types are the caller's business (run.ClusterNodes).
		return toolkit, true
	case pkg == "sojourn/replay/scenario":
		return below("sojourn/replay", "sojourn/traces"), true
	case pkg == "sojourn/replay/replaytest":
		return below("sojourn/replay", "sojourn/traces", "sojourn/swim"), true
	case pkg == "sojourn/results":
		return below("sojourn/replay", "sojourn/traces"), true
	case under(pkg, "sojourn/analysis"):
		// Statistics: slices in, numbers out.
		return []string{"sojourn/analysis/..."}, true
	case under(pkg, "sojourn/schedulers/internal"):
		return below("sojourn/replay", "sojourn/traces", "sojourn/schedulers/internal/..."), true
	case pkg == "sojourn/schedulers":
		// The registry: every policy, nothing above.
		return below("sojourn/replay", "sojourn/traces", "sojourn/schedulers/..."), true
	case strings.HasPrefix(pkg, "sojourn/schedulers/"):
		// A core or a policy: the engine's views, the toolkit and the
		// cores, never a policy.
		allowed := below("sojourn/replay", "sojourn/traces", "sojourn/schedulers/internal/...")
		for _, c := range cores {
			allowed = append(allowed, "sojourn/schedulers/"+c)
		}
		return allowed, true
	case under(pkg, "sojourn/run"), pkg == "sojourn/reports":
		// The run path and the reports sit above the policies; only the
		// command sits above them.
		return []string{"sojourn/..."}, true
	case under(pkg, "sojourn/cmd"):
		return []string{"sojourn/..."}, true
	}
	return nil, false
}

// under reports whether pkg is dir or inside it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

func allows(allowed []string, imp string) bool {
	for _, a := range allowed {
		if dir, ok := strings.CutSuffix(a, "/..."); ok && under(imp, dir) || a == imp {
			return true
		}
	}
	return false
}

// imports reads the sojourn imports of every package of the module (test
// files aside), by package path.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "out") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := path.Join(module, filepath.ToSlash(rel))
		if _, seen := out[pkg]; !seen {
			out[pkg] = nil
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if under(imp, module) && !slices.Contains(out[pkg], imp) {
				out[pkg] = append(out[pkg], imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLayers checks every package's imports against its layer.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	pkgs := imports(t, root)
	if len(pkgs) < 20 {
		t.Fatalf("found only %d packages under %s", len(pkgs), root)
	}
	policies := 0
	for _, pkg := range slices.Sorted(func(yield func(string) bool) {
		for p := range pkgs {
			if !yield(p) {
				return
			}
		}
	}) {
		allowed, ok := layer(pkg)
		if !ok {
			t.Errorf("%s: a package the layout does not place; add it to layer()", pkg)
			continue
		}
		if isPolicy(pkg) {
			policies++
		}
		for _, imp := range pkgs[pkg] {
			if !allows(allowed, imp) {
				t.Errorf("%s imports %s: not allowed in its layer (allowed: %s)", pkg, imp, strings.Join(allowed, ", "))
			}
		}
	}
	if policies < 8 {
		t.Errorf("found %d policy packages under schedulers/, want at least 8", policies)
	}
}

// isPolicy reports whether pkg is a policy package: a folder directly
// under schedulers/ that is neither a core nor the toolkit.
func isPolicy(pkg string) bool {
	name, ok := strings.CutPrefix(pkg, "sojourn/schedulers/")
	return ok && !strings.Contains(name, "/") && name != "internal" && !slices.Contains(cores, name)
}

// TestLayerRules checks the rules themselves on made-up imports, so that a
// rule loosened by mistake shows here.
func TestLayerRules(t *testing.T) {
	for _, c := range []struct {
		pkg, imp string
		ok       bool
	}{
		{"sojourn/traces", "sojourn/replay", false},
		{"sojourn/traces", "sojourn/internal/atomicfile", true},
		{"sojourn/replay", "sojourn/traces", true},
		{"sojourn/traces/formats", "sojourn/traces", true},
		{"sojourn/traces/formats", "sojourn/swim", false},
		{"sojourn/traces/formats", "sojourn/replay", false},
		{"sojourn/replay", "sojourn/schedulers", false},
		{"sojourn/schedulers/hfsp", "sojourn/schedulers/fair", false},
		{"sojourn/schedulers/hfsp", "sojourn/schedulers/vcluster", true},
		{"sojourn/schedulers/hfsp", "sojourn/schedulers/internal/delay", true},
		{"sojourn/schedulers/hfsp", "sojourn/results", false},
		{"sojourn/schedulers/internal/delay", "sojourn/schedulers/fifo", false},
		{"sojourn/analysis", "sojourn/replay", false},
		{"sojourn/results", "sojourn/schedulers", false},
		{"sojourn/replay/scenario", "sojourn/schedulers", false},
		{"sojourn/cmd/bench", "sojourn/schedulers", true},
	} {
		allowed, ok := layer(c.pkg)
		if !ok {
			t.Fatalf("%s: not placed", c.pkg)
		}
		if got := allows(allowed, c.imp); got != c.ok {
			t.Errorf("%s importing %s: allowed %v, want %v", c.pkg, c.imp, got, c.ok)
		}
	}
}
