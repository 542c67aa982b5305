package validate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/packagemanifest"

	"github.com/opack/opack/internal/finding"
)

// corpusBundles lists the bundle folders of the certified-operators corpus (../shared/corpus from the
// repository root), skipping the test when it is absent.
func corpusBundles(tb testing.TB) []string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("corpus test skipped with -short")
	}
	root := benchutil.CorpusDir(tb, "certified-operators")
	dirs, err := filepath.Glob(filepath.Join(root, "*", "*"))
	if err != nil {
		tb.Fatal(err)
	}
	var bundles []string
	for _, d := range dirs {
		if isDir(d) {
			bundles = append(bundles, d)
		}
	}
	return bundles
}

func TestCorpusValidateBundles(t *testing.T) {
	bundles := corpusBundles(t)
	n := 0
	for _, b := range bundles {
		if isDir(filepath.Join(b, "manifests")) {
			n++
		}
	}
	if n != 605 {
		t.Fatalf("found %d bundles in the corpus, want 605", n)
	}
	report, err := Bundles(context.Background(), bundles, WithSelector("suite=operatorframework"))
	if err != nil {
		t.Fatal(err)
	}
	perRule := map[string]int{}
	for _, f := range report.Findings {
		if f.File == "" || f.Message == "" {
			t.Errorf("finding without file or message: %+v", f)
		}
		perRule[string(f.Severity)+" "+f.Rule]++
	}
	if got, want := perRule["error "+RuleNotBundle], len(bundles)-n; got != want {
		t.Errorf("%d not-a-bundle findings, want %d (one per folder without manifests/)", got, want)
	}
	for _, k := range sortedKeys(perRule) {
		t.Logf("%6d %s", perRule[k], k)
	}
}

func BenchmarkCorpusValidateBundles(b *testing.B) {
	bundles := corpusBundles(b)
	defer benchutil.Measure(b)()
	for b.Loop() {
		if _, err := Bundles(context.Background(), bundles); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCorpusPackageManifests validates every package-manifest folder of the corpus, converts each to bundle
// folders and checks that the bundles give the same findings.
func TestCorpusPackageManifests(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test skipped with -short")
	}
	pkgs, err := filepath.Glob(filepath.Join(benchutil.CorpusDir(t, "packagemanifests"), "*"))
	if err != nil || len(pkgs) == 0 {
		t.Fatalf("no package-manifest folders in the corpus: %v", err)
	}
	ctx := context.Background()
	for _, pkg := range pkgs {
		t.Run(filepath.Base(pkg), func(t *testing.T) {
			r, err := Bundles(ctx, []string{pkg})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r.Findings {
				if f.Rule == RulePackage || f.Rule == RuleLoad || f.Rule == RuleNotBundle || f.Rule == RuleTree {
					t.Errorf("package not accepted: %s", f)
				}
			}
			converted, cr, err := packagemanifest.Convert(ctx, pkg, filepath.Join(t.TempDir(), "out"))
			if err != nil || !cr.Passed() {
				t.Fatalf("converting: %v %v", err, cr.Findings)
			}
			var dirs []string
			for _, c := range converted {
				dirs = append(dirs, c.Dir)
			}
			rb, err := Bundles(ctx, dirs)
			if err != nil {
				t.Fatal(err)
			}
			if len(rb.Findings) != len(r.Findings) || rb.Count(finding.SeverityError) != r.Count(finding.SeverityError) {
				t.Errorf("package: %s; converted bundles: %s", r.Summary(), rb.Summary())
			}
		})
	}
}

func BenchmarkValidateSample(b *testing.B) {
	dir := filepath.Join("..", "..", "testdata", "validate", "samples", "memcached-operator", "bundle")
	for b.Loop() {
		if _, err := Bundles(context.Background(), []string{dir}, WithSelector("suite=operatorframework")); err != nil {
			b.Fatal(err)
		}
	}
}
