package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// streamPkg, streamChannel and streamBundle write the blobs of the catalogs of TestStreamSameAsWhole.
func streamPkg(name string) string {
	return fmt.Sprintf("---\nschema: olm.package\nname: %s\ndefaultChannel: stable\n", name)
}

func streamChannel(pkg, name string, entries ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nschema: olm.channel\npackage: %s\nname: %s\nentries:\n", pkg, name)
	for _, e := range entries {
		b.WriteString("- " + e + "\n")
	}
	return b.String()
}

// streamBundle writes a bundle providing and requiring the given APIs ("group/version/Kind").
func streamBundle(pkg, version string, provides, requires []string, pkgRequired string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nschema: olm.bundle\npackage: %s\nname: %s.v%s\nimage: quay.io/x/%s-bundle:v%s\nproperties:\n", pkg, pkg, version, pkg, version)
	fmt.Fprintf(&b, "- type: olm.package\n  value: {packageName: %s, version: %s}\n", pkg, version)
	gvk := func(typ, s string) {
		p := strings.Split(s, "/")
		fmt.Fprintf(&b, "- type: %s\n  value: {group: %s, version: %s, kind: %s}\n", typ, p[0], p[1], p[2])
	}
	for _, s := range provides {
		gvk("olm.gvk", s)
	}
	for _, s := range requires {
		gvk("olm.gvk.required", s)
	}
	if pkgRequired != "" {
		p := strings.SplitN(pkgRequired, " ", 2)
		fmt.Fprintf(&b, "- type: olm.package.required\n  value: {packageName: %s, versionRange: '%s'}\n", p[0], p[1])
	}
	return b.String()
}

// TestStreamSameAsWhole checks that the checks run file by file as a catalog loads (catalogStream) find
// what the checks on the whole loaded catalog find, files of the findings included, for every check
// group: opm's problems, the graph checks, and the dependency checks across packages, with packages in
// one file, spread over several, and several in one file.
func TestStreamSameAsWhole(t *testing.T) {
	ctx := context.Background()
	// a: its head 1.1.0 stops providing a.io/v1/Old, which b's head requires (deps error); a skipRange
	// covering its own version (graph warning).
	aPkg := streamPkg("a")
	aChan := streamChannel("a", "stable", "name: a.v1.0.0", "name: a.v1.1.0\n  replaces: a.v1.0.0\n  skipRange: '<=1.1.0'")
	aB1 := streamBundle("a", "1.0.0", []string{"a.io/v1/Old", "a.io/v1/Kept"}, nil, "")
	aB2 := streamBundle("a", "1.1.0", []string{"a.io/v1/Kept"}, nil, "")
	// b: requires a's dropped API, an API nobody provides, and a package version nobody has.
	b := streamPkg("b") + streamChannel("b", "stable", "name: b.v2.0.0") +
		streamBundle("b", "2.0.0", []string{"b.io/v1/B"}, []string{"a.io/v1/Old", "z.io/v1/Nowhere"}, "a >=2.0.0")
	// c: opm problems (a duplicate entry; an entry without its bundle) and a channel of an unknown package.
	c := streamPkg("c") + streamChannel("c", "stable", "name: c.v1.0.0", "name: c.v1.0.0") +
		streamChannel("c", "beta", "name: c.v0.1.0") + streamBundle("c", "1.0.0", nil, nil, "") +
		streamChannel("ghost", "stable", "name: ghost.v1.0.0")
	depA := "---\nschema: olm.deprecations\npackage: a\nentries:\n- reference: {schema: olm.package}\n  message: a is gone\n"
	depNone := "---\nschema: olm.deprecations\nentries: []\n"
	tests := []struct {
		name  string
		files map[string]string
	}{
		{"one file per package", map[string]string{"a/catalog.yaml": aPkg + aChan + aB1 + aB2, "b/catalog.yaml": b, "c/catalog.yaml": c}},
		{"a package spread over three files", map[string]string{"a/package.yaml": aPkg + aChan, "a/b1.yaml": aB1, "a/b2.yaml": aB2,
			"b/catalog.yaml": b, "c/catalog.yaml": c}},
		{"a spread package sharing a file with a whole one", map[string]string{"ab.yaml": aPkg + aChan + aB1 + b, "a2.yaml": aB2, "c/catalog.yaml": c}},
		{"all in one file", map[string]string{"all.yaml": aPkg + aChan + aB1 + aB2 + b + c}},
		{"a package blob repeated in two files", map[string]string{"a/catalog.yaml": aPkg + aChan + aB1 + aB2, "b/catalog.yaml": b + aPkg, "c/catalog.yaml": c}},
		// opm names a deprecation without a package by its index among all the catalog's deprecations.
		{"a deprecation without a package after another file's", map[string]string{"a/catalog.yaml": aPkg + aChan + aB1 + aB2 + depA,
			"b/catalog.yaml": b + depNone, "c/catalog.yaml": c}},
		{"deprecations without a package in two files", map[string]string{"a/catalog.yaml": aPkg + aChan + aB1 + aB2 + depNone + depA,
			"b/catalog.yaml": b + depNone, "c/catalog.yaml": c + depNone}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, checks := range [][]string{nil, {CheckDeps}, {CheckOPM, CheckGraph}} {
				got, err := ValidateDir(ctx, dir, nil, WithChecks(checks...))
				if checks == nil {
					got, err = ValidateDir(ctx, dir, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				want := validateWholeWithFiles(t, dir, checks)
				if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
					t.Errorf("checks %v, file by file (-whole +streamed):\n%s", checks, diff)
				}
			}
			all, _ := ValidateDir(ctx, dir, nil)
			for _, rule := range []string{ruleOPM, ruleDeps, ruleGraph} {
				if !hasRule(all.Findings, rule) {
					t.Errorf("no %s finding: the case does not test that group\n%s", rule, findingsText(all.Findings))
				}
			}
		})
	}
}

// validateWholeWithFiles loads the whole catalog with its sources and validates it as one.
func validateWholeWithFiles(t *testing.T, dir string, checks []string) *finding.Report {
	t.Helper()
	src := &fbc.Sources{}
	cfg, err := fbc.LoadDir(context.Background(), dir, fbc.WithoutPropertyValues(fbc.TypeCSVMetadata, fbc.TypeBundleObject), fbc.WithSources(src))
	if err != nil {
		t.Fatal(err)
	}
	opts := []ValidateOption{WithFile(dir), func(o *validateOptions) { o.sources = src }}
	if checks != nil {
		opts = append(opts, WithChecks(checks...))
	}
	return Validate(context.Background(), cfg, opts...)
}

func hasRule(fs []finding.Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestCorpusStreamSameAsWhole is TestStreamSameAsWhole on the corpus catalogs, files of the findings
// included.
func TestCorpusStreamSameAsWhole(t *testing.T) {
	for _, name := range []string{"certified-operators-v4.22", "certified-operators-v4.14-partial"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(filepath.Dir(corpusDir(t)), name)
			got, err := ValidateDir(context.Background(), dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := validateWholeWithFiles(t, dir, nil)
			if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
				t.Errorf("file by file (-whole +streamed):\n%s", diff)
			}
			t.Logf("%d findings", len(got.Findings))
		})
	}
}
