package validate

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	compareCorpusFindings(t, benchutil.CorpusDir(t), report.Findings)
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/corpus-605.findings.txt.gz from this run")

// compareCorpusFindings compares every finding on the 605 corpus bundles, in order, with
// testdata/corpus-605.findings.txt.gz (one finding per line, tab-separated; gzip keeps 0.9 MB of
// text at ~22 kB): a change that means to be only faster must not change one. The file is opack's own
// output (recorded 2026-11-24 on main 2e3fb86), a regression baseline, not an upstream oracle: parity
// with operator-sdk is what the validate golden cases check.
// (go test ./internal/validate -run TestCorpusValidateBundles -update-corpus rewrites it).
func compareCorpusFindings(t *testing.T, root string, fs []finding.Finding) {
	t.Helper()
	var b strings.Builder
	for _, f := range fs {
		file := f.File
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
		msg := strings.ReplaceAll(f.Message, root+string(filepath.Separator), "")
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\n", f.Severity, f.Rule, file, f.Object, strings.ReplaceAll(msg, "\n", "\\n"))
	}
	golden := filepath.Join("testdata", "corpus-605.findings.txt.gz")
	if *updateCorpus {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write([]byte(b.String()))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := readGzip(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestCorpusValidateBundles -update-corpus writes it)", err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("findings on the 605 corpus bundles differ from %s (-want +got):\n%s", golden, d)
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

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return io.ReadAll(zr)
}
