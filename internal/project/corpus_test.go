package project

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/emit"
)

// TestCorpusOLMv1Installability runs the OLM v1 installability check on every bundle of the
// certified-operators corpus (../shared/corpus from the repository root) and reports how many
// operator-controller would refuse, and why.
func TestCorpusOLMv1Installability(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus", "certified-operators")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("corpus not found at %s: %v", root, err)
	}
	dirs, err := filepath.Glob(filepath.Join(root, "*", "*", "manifests"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 100 {
		t.Fatalf("found %d bundles in %s, expected the whole corpus", len(dirs), root)
	}
	perRule := map[string]int{}
	installable := 0
	for _, m := range dirs {
		dir := filepath.Dir(m)
		b, err := bundle.Load(context.Background(), dir)
		if err != nil {
			t.Logf("skipping %s: %v", dir, err)
			perRule["(not loadable)"]++
			continue
		}
		props, err := bundleProperties(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		problems := emit.CheckOLMv1(b.CSV, props)
		if len(problems) == 0 {
			installable++
		}
		for _, p := range problems {
			if p.Rule == "" || p.Message == "" {
				t.Errorf("%s: problem without rule or message: %+v", dir, p)
			}
			perRule[p.Rule]++
		}
		if _, err := emit.CheckTarget(emit.TargetV1, problems); (err != nil) != (len(problems) > 0) {
			t.Errorf("%s: CheckTarget(v1) = %v for %d problems", dir, err, len(problems))
		}
	}
	rules := make([]string, 0, len(perRule))
	for r := range perRule {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	t.Logf("%d of %d bundles installable by OLM v1", installable, len(dirs))
	for _, r := range rules {
		t.Logf("%5d %s", perRule[r], r)
	}
	if installable == 0 || installable == len(dirs) {
		t.Errorf("%d of %d installable: the check does not discriminate", installable, len(dirs))
	}
}
