package crd

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/crd/load"
)

// corpusBundles returns the operator folders of the certified-operators corpus, each with its bundle
// folders sorted by version.
func corpusBundles(t testing.TB, root string) map[string][]string {
	t.Helper()
	ops, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	out := map[string][]string{}
	for _, op := range ops {
		if !op.IsDir() {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, op.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var dirs []string
		for _, e := range entries {
			if st, err := os.Stat(filepath.Join(root, op.Name(), e.Name(), "manifests")); err == nil && st.IsDir() {
				dirs = append(dirs, e.Name())
			}
		}
		sort.Slice(dirs, func(i, j int) bool { return versionLess(dirs[i], dirs[j]) })
		for i := range dirs {
			dirs[i] = filepath.Join(root, op.Name(), dirs[i])
		}
		out[op.Name()] = dirs
	}
	return out
}

func versionLess(a, b string) bool {
	va, ea := semver.ParseTolerant(strings.TrimPrefix(a, "v"))
	vb, eb := semver.ParseTolerant(strings.TrimPrefix(b, "v"))
	if ea == nil && eb == nil {
		return va.LT(vb)
	}
	return a < b
}

// TestCorpusCRDUpgrade compares every consecutive pair of bundle versions of the certified-operators
// corpus, as `opack validate crds OLD NEW` does, and requires that every comparison runs and that
// every finding's severity, actors and fix agree (agree).
func TestCorpusCRDUpgrade(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test; skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus", "certified-operators")
	pairs, errs, findings := 0, 0, map[Rule]int{}
	ctx := context.Background()
	for op, dirs := range corpusBundles(t, root) {
		var prev *load.Set
		for i, dir := range dirs {
			set, err := load.CRDs(ctx, dir)
			if err != nil {
				errs++
				t.Errorf("%s: loading %s: %v", op, filepath.Base(dir), err)
				prev = nil
				continue
			}
			if i > 0 {
				pairs++
			}
			if same := CompareSets(set, set); len(same) != 0 {
				t.Errorf("%s: %s compared with itself gives findings: %v", op, filepath.Base(dir), same)
			}
			if prev == nil {
				prev = set
				continue
			}
			for _, f := range CompareSets(prev, set) {
				if err := agree(f, nil); err != nil {
					t.Errorf("%s %s -> %s: %v", op, filepath.Base(dirs[i-1]), filepath.Base(dir), err)
				}
				if f.Severity >= SeverityWarning {
					findings[f.Rule]++
					if os.Getenv("OPACK_CORPUS_VERBOSE") != "" {
						t.Logf("%s %s -> %s: %s %s: %s", op, filepath.Base(dirs[i-1]), filepath.Base(dir), f.Severity, f.Rule, f)
					}
				}
			}
			prev = set
		}
	}
	if pairs == 0 {
		t.Fatal("no bundle pairs found in the corpus")
	}
	rules := make([]string, 0, len(findings))
	for r, n := range findings {
		rules = append(rules, string(r)+"="+strconv.Itoa(n))
	}
	sort.Strings(rules)
	t.Logf("%d pairs compared, %d could not run; warnings and errors by rule: %s", pairs, errs, strings.Join(rules, " "))
}
