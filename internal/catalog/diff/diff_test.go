package diff

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// corpusPackage is a real package of ../shared/corpus/fbc: a replaces chain
// 0.24.0 → 0.26.1 → 0.26.2 → 0.28.0 in channel alpha, with its CRDs in olm.bundle.object.
const (
	corpusDir     = "../../../../shared/corpus/fbc/certified-operators-v4.14-partial"
	corpusPackage = "intel-device-plugins-operator"
	catalogFile   = "catalog/" + corpusPackage + "/catalog.yaml"
)

func readCorpus(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, corpusPackage, "catalog.yaml"))
	if err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", corpusDir, err)
	}
	return string(data)
}

// withoutBundle drops bundle name's entry (the line naming it and its replaces line) and blob.
func withoutBundle(t *testing.T, catalog, name string) string {
	t.Helper()
	entry := "- name: " + name + "\n"
	i := strings.Index(catalog, entry)
	if i < 0 {
		t.Fatalf("no entry %s", name)
	}
	rest := catalog[i+len(entry):]
	for strings.HasPrefix(rest, "  ") {
		rest = rest[strings.Index(rest, "\n")+1:]
	}
	catalog = catalog[:i] + rest
	var keep []string
	for _, doc := range strings.Split(catalog, "\n---\n") {
		if !strings.Contains(doc, "\nname: "+name+"\npackage: ") {
			keep = append(keep, doc)
		}
	}
	return strings.Join(keep, "\n---\n")
}

func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("%q not found", old)
	}
	return strings.Replace(s, old, new, 1)
}

// gitRepo commits each set of files in turn (files absent from a set are kept) with go-git.
func gitRepo(t *testing.T, commits ...map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for i, files := range commits {
		for name, content := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			t.Fatal(err)
		}
		sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(int64(1_700_000_000+i), 0)}
		if _, err := wt.Commit("commit", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDiffRealRevisions(t *testing.T) {
	orig := readCorpus(t)
	const (
		v0261 = corpusPackage + ".v0.26.1"
		v0280 = corpusPackage + ".v0.28.0"
	)
	channelChanged := replace(t, orig, "  replaces: "+corpusPackage+".v0.26.2\nname: alpha\n",
		"  replaces: "+corpusPackage+".v0.26.2\n  skipRange: '>=0.24.0 <0.28.0'\nname: alpha\n")
	channelChanged = replace(t, channelChanged, "defaultChannel: alpha\n", "defaultChannel: stable\n")
	channelChanged = replace(t, channelChanged, "\n---\nentries:\n", "\n---\nentries:\n- name: "+v0280+"\nname: stable\npackage: "+corpusPackage+"\nschema: olm.channel\n---\nentries:\n")
	channelChanged += "---\nentries:\n- message: alpha is replaced by stable\n  reference:\n    name: alpha\n    schema: olm.channel\npackage: " + corpusPackage + "\nschema: olm.deprecations\n"
	tests := []struct {
		name       string
		base, head string
		passed     bool
		// want: what the change must report (the goldens pin the rest).
		added, removed []string
		stranded       int
	}{
		{name: "add-bundle", base: withoutBundle(t, orig, v0280), head: orig, passed: true, added: []string{v0280}},
		// The head counts too: with the chain broken, OLM v0 cannot resolve from it either.
		{name: "remove-middle-bundle", base: orig, head: withoutBundle(t, orig, v0261), passed: false, removed: []string{v0261}, stranded: 4},
		// Clusters still run the removed head: nothing in HEAD upgrades them.
		{name: "remove-head-bundle", base: orig, head: withoutBundle(t, orig, v0280), passed: false, removed: []string{v0280}, stranded: 1},
		{name: "change-channel", base: orig, head: channelChanged, passed: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gitRepo(t, map[string]string{catalogFile: tc.base}, map[string]string{catalogFile: tc.head})
			r, err := Diff(context.Background(), "git:HEAD~1:catalog", "git:HEAD:catalog", WithDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Passed(); got != tc.passed {
				t.Errorf("Passed() = %v, want %v; findings: %v", got, tc.passed, r.Findings)
			}
			if len(r.Packages) != 1 {
				t.Fatalf("%d packages changed, want 1", len(r.Packages))
			}
			p := r.Packages[0]
			if diff := cmp.Diff(tc.added, p.BundlesAdded); diff != "" {
				t.Errorf("bundles added (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.removed, p.BundlesRemoved); diff != "" {
				t.Errorf("bundles removed (-want +got):\n%s", diff)
			}
			if got := len(p.NewlyStranded); got != tc.stranded {
				t.Errorf("%d newly stranded, want %d: %+v", got, tc.stranded, p.NewlyStranded)
			}
			for _, format := range []string{FormatText, FormatJSON, FormatMarkdown, FormatGitHub, FormatMermaid} {
				var b bytes.Buffer
				if err := Write(&b, format, r); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", tc.name+"."+format), b.String())
			}
		})
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestUnchangedPackagesNotDecoded: a file of another package that does not parse, identical on
// both sides, is hashed and never decoded; once it changes, it is an opm/load error.
func TestUnchangedPackagesNotDecoded(t *testing.T) {
	orig := readCorpus(t)
	broken := `{"schema": "olm.package", "name": "broken-operator", "defaultChannel": `
	tests := []struct {
		name         string
		brokenAfter  string
		wantPackages []string
		wantRules    []string
	}{
		{name: "unchanged", brokenAfter: broken, wantPackages: []string{corpusPackage}},
		{name: "changed", brokenAfter: broken + " ", wantPackages: []string{}, wantRules: []string{"opm/load"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gitRepo(t,
				map[string]string{catalogFile: withoutBundle(t, orig, corpusPackage+".v0.28.0"), "catalog/broken/catalog.json": broken},
				map[string]string{catalogFile: orig, "catalog/broken/catalog.json": tc.brokenAfter})
			for _, head := range []string{"git:HEAD:catalog", filepath.Join(dir, "catalog")} {
				r, err := Diff(context.Background(), "git:HEAD~1:catalog", head, WithDir(dir))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, p := range r.Packages {
					got = append(got, p.Name)
				}
				if diff := cmp.Diff(tc.wantPackages, append([]string{}, got...)); diff != "" {
					t.Errorf("%s: changed packages (-want +got):\n%s", head, diff)
				}
				var rules []string
				for _, f := range r.Findings {
					if f.Severity == "error" {
						rules = append(rules, f.Rule)
					}
				}
				if diff := cmp.Diff(tc.wantRules, rules); diff != "" {
					t.Errorf("%s: error rules (-want +got):\n%s", head, diff)
				}
			}
		})
	}
}

func TestParseGitRef(t *testing.T) {
	tests := []struct {
		arg, rev, path string
		err            bool
	}{
		{arg: "git:HEAD:catalog", rev: "HEAD", path: "catalog"},
		{arg: "git:HEAD~1:.", rev: "HEAD~1", path: "."},
		{arg: "git:origin/main:", rev: "origin/main", path: ""},
		{arg: "git:HEAD", err: true},
		{arg: "git::catalog", err: true},
		{arg: "catalog", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.arg, func(t *testing.T) {
			rev, p, err := ParseGitRef(tc.arg)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if diff := cmp.Diff([2]string{tc.rev, tc.path}, [2]string{rev, p}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHashFile(t *testing.T) {
	for _, data := range []string{"", "schema: olm.package\nname: demo\n"} {
		p := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := hashFile(p, "f.yaml")
		if want := plumbing.ComputeHash(plumbing.BlobObject, []byte(data)); err != nil || got != want {
			t.Errorf("hashFile(%q) = %s, %v; want git's %s", data, got, err, want)
		}
	}
}

// TestSpreadPackage: a package whose channel and bundles are in different files is decoded whole
// when only its channel file changed, whether HEAD is a git tree or a folder.
func TestSpreadPackage(t *testing.T) {
	bundle := func(v string) string {
		return "---\nimage: example.com/demo-bundle:v" + v + "\nname: demo.v" + v + "\npackage: demo\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: " + v + "\nschema: olm.bundle\n"
	}
	index := "---\ndefaultChannel: stable\nname: demo\nschema: olm.package\n---\nentries:\n- name: demo.v1.0.0\n- name: demo.v1.1.0\n  replaces: demo.v1.0.0\nname: stable\npackage: demo\nschema: olm.channel\n"
	changed := strings.Replace(index, "  replaces: demo.v1.0.0\n", "  replaces: demo.v1.0.0\n  skipRange: '<1.1.0'\n", 1)
	dir := gitRepo(t,
		map[string]string{"catalog/index.yaml": index, "catalog/bundles/demo-v1.0.0.yaml": bundle("1.0.0"), "catalog/bundles/demo-v1.1.0.yaml": bundle("1.1.0")},
		map[string]string{"catalog/index.yaml": changed})
	for _, head := range []string{"git:HEAD:catalog", filepath.Join(dir, "catalog")} {
		t.Run(filepath.Base(head), func(t *testing.T) {
			r, err := Diff(context.Background(), "git:HEAD~1:catalog", head, WithDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Packages) != 1 {
				t.Fatalf("%d packages changed, want 1", len(r.Packages))
			}
			want := []EntryChange{{Channel: "stable", Bundle: "demo.v1.1.0", Field: "skipRange", Change: Change{After: "<1.1.0"}}}
			if diff := cmp.Diff(want, r.Packages[0].Entries); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]finding.Finding{}, r.Findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOneFileCatalog: a catalog kept as one file beside other catalogs of the same package (as
// netobserv/netobserv-catalog keeps released.yaml, y-stream.yaml and z-stream.yaml) is compared alone,
// from git or from the work tree, and its findings name the file.
func TestOneFileCatalog(t *testing.T) {
	catalog := func(versions ...string) string {
		out := "---\ndefaultChannel: stable\nname: demo\nschema: olm.package\n---\nentries:\n"
		for i, v := range versions {
			out += "- name: demo.v" + v + "\n"
			if i > 0 {
				out += "  replaces: demo.v" + versions[i-1] + "\n"
			}
		}
		out += "name: stable\npackage: demo\nschema: olm.channel\n"
		for _, v := range versions {
			out += "---\nimage: example.com/demo-bundle:v" + v + "\nname: demo.v" + v + "\npackage: demo\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: " + v + "\nschema: olm.bundle\n"
		}
		return out
	}
	dir := gitRepo(t,
		map[string]string{"catalog/released.yaml": catalog("1.0.0", "1.1.0"), "catalog/candidate.yaml": catalog("1.0.0", "1.1.0", "1.2.0")},
		map[string]string{"catalog/released.yaml": catalog("1.0.0", "1.1.0", "1.2.0")})
	for _, head := range []string{"git:HEAD:catalog/released.yaml", filepath.Join(dir, "catalog", "released.yaml")} {
		t.Run(filepath.Base(filepath.Dir(head)), func(t *testing.T) {
			r, err := Diff(context.Background(), "git:HEAD~1:catalog/released.yaml", head, WithDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Passed() {
				t.Errorf("failed: %v (candidate.yaml, another catalog of the package, must not be read)", r.Findings)
			}
			for _, f := range r.Findings {
				if !strings.HasSuffix(f.File, "catalog/released.yaml") {
					t.Errorf("finding names %q, want catalog/released.yaml: %v", f.File, f)
				}
			}
			if len(r.Packages) != 1 {
				t.Fatalf("%d packages changed, want 1", len(r.Packages))
			}
			if diff := cmp.Diff([]string{"demo.v1.2.0"}, r.Packages[0].BundlesAdded); diff != "" {
				t.Errorf("bundles added (-want +got):\n%s", diff)
			}
			var b bytes.Buffer
			if err := WriteText(&b, r); err != nil {
				t.Fatal(err)
			}
			want := "stable 1.1.0, 1.0.0 (2 releases): v0 and v1 as before, then → 1.2.0"
			if !strings.Contains(b.String(), want) {
				t.Errorf("text lacks %q:\n%s", want, b.String())
			}
		})
	}
	if _, err := Diff(context.Background(), "git:HEAD:catalog/missing.yaml", "git:HEAD:catalog", WithDir(dir)); err == nil || !strings.Contains(err.Error(), "no folder or file catalog/missing.yaml") {
		t.Errorf("a missing path: got %v, want an error naming it", err)
	}
}

func TestUpgradeLines(t *testing.T) {
	p := &Package{Name: "demo", versions: map[string]string{}}
	for _, v := range []string{"1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.3.0"} {
		p.versions["demo.v"+v] = v
	}
	tests := []struct {
		name     string
		upgrades []PathChange
		want     []string
	}{
		{
			name: "extended by the same release: one line",
			upgrades: []PathChange{
				{Channel: "stable", From: "demo.v1.1.0", Version: "1.1.0", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
				{Channel: "stable", From: "demo.v1.0.0", Version: "1.0.0", V0Before: []string{"demo.v1.1.0"}, V0After: []string{"demo.v1.1.0", "demo.v1.2.0"}, V1Before: []string{"demo.v1.1.0"}, V1After: []string{"demo.v1.1.0", "demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
			},
			want: []string{"stable 1.1.0, 1.0.0 (2 releases): v0 and v1 as before, then → 1.2.0"},
		},
		{
			name: "one release alone keeps its line",
			upgrades: []PathChange{
				{Channel: "stable", From: "demo.v1.1.0", Version: "1.1.0", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
			},
			want: []string{"stable 1.1.0: v0 stays ⇒ 1.2.0; v1 stays ⇒ 1.2.0"},
		},
		{
			name: "a path that changes course is listed alone",
			upgrades: []PathChange{
				{Channel: "stable", From: "demo.v1.1.0", Version: "1.1.0", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
				{Channel: "stable", From: "demo.v1.0.1", Version: "1.0.1", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
				{Channel: "stable", From: "demo.v1.0.0", Version: "1.0.0", V0Before: []string{"demo.v1.1.0"}, V0After: []string{"demo.v1.2.0"}, V1Before: []string{"demo.v1.1.0"}, V1After: []string{"demo.v1.2.0"}, V0StopBefore: "head", V0StopAfter: "head"},
			},
			want: []string{
				"stable 1.1.0, 1.0.1 (2 releases): v0 and v1 as before, then → 1.2.0",
				"stable 1.0.0: v0 1.1.0 ⇒ 1.2.0; v1 1.1.0 ⇒ 1.2.0",
			},
		},
		{
			name: "OLM v1 gains another release: listed alone",
			upgrades: []PathChange{
				{Channel: "stable", From: "demo.v1.1.0", Version: "1.1.0", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.3.0"}, V0StopBefore: "head", V0StopAfter: "head"},
				{Channel: "stable", From: "demo.v1.0.0", Version: "1.0.0", V0After: []string{"demo.v1.2.0"}, V1After: []string{"demo.v1.3.0"}, V0StopBefore: "head", V0StopAfter: "head"},
			},
			want: []string{
				"stable 1.1.0: v0 stays ⇒ 1.2.0; v1 stays ⇒ 1.3.0",
				"stable 1.0.0: v0 stays ⇒ 1.2.0; v1 stays ⇒ 1.3.0",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p.Upgrades = tc.upgrades
			got, more := p.upgradeLines(len(tc.want))
			if diff := cmp.Diff(tc.want, got); diff != "" || more != 0 {
				t.Errorf("lines (-want +got), %d more:\n%s", more, diff)
			}
			// Bounded: the first line, and the count of the others, unformatted.
			got, more = p.upgradeLines(1)
			if diff := cmp.Diff(tc.want[:1], got); diff != "" || more != len(tc.want)-1 {
				t.Errorf("at most one line (-want +got), %d more (want %d):\n%s", more, len(tc.want)-1, diff)
			}
		})
	}
}

// TestDeliberateRemovals: a whole channel or package removed is deliberate, and says so: a warning,
// the same for a channel and a package (clusters subscribed get no more upgrades and nothing told
// their users), or info when BASE deprecated it first; its releases are not newly stranded. A release
// cut out of a channel that goes on is an accidental strand: an error (TestDiffRealRevisions).
func TestDeliberateRemovals(t *testing.T) {
	orig := readCorpus(t)
	const v0280 = corpusPackage + ".v0.28.0"
	stable := "---\nentries:\n- name: " + v0280 + "\nname: stable\npackage: " + corpusPackage + "\nschema: olm.channel\n"
	deprecate := func(schema, name string) string {
		ref := "    schema: " + schema + "\n"
		if name != "" {
			ref = "    name: " + name + "\n" + ref
		}
		return "---\nentries:\n- message: " + name + " goes\n  reference:\n" + ref + "package: " + corpusPackage + "\nschema: olm.deprecations\n"
	}
	withStable := orig + stable
	type want struct {
		Rule     string
		Severity finding.Severity
		Prefix   string
	}
	tests := []struct {
		name       string
		base, head string
		want       want
	}{
		{"channel removed", withStable, orig, want{RuleChannelRemoved, finding.SeverityWarning,
			"deliberate removal: channel stable is removed with its 1 release(s): clusters subscribed to it get no more upgrades, and no deprecation"}},
		{"deprecated channel removed", withStable + deprecate("olm.channel", "stable"), orig, want{RuleChannelRemoved, finding.SeverityInfo,
			"deliberate removal: channel stable is removed with its 1 release(s): clusters subscribed to it get no more upgrades, as the deprecation of the channel told"}},
		{"channel of a deprecated package removed", withStable + deprecate("olm.package", ""), orig + deprecate("olm.package", ""), want{RuleChannelRemoved, finding.SeverityInfo,
			"deliberate removal: channel stable is removed"}},
		{"package removed", orig, "", want{RulePackageRemoved, finding.SeverityWarning,
			"deliberate removal: package " + corpusPackage + " is removed with its 4 release(s): clusters running one of them get no more upgrades, and no deprecation"}},
		{"deprecated package removed", orig + deprecate("olm.package", ""), "", want{RulePackageRemoved, finding.SeverityInfo,
			"deliberate removal: package " + corpusPackage + " is removed with its 4 release(s): clusters running one of them get no more upgrades, as the deprecation of the package told"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gitRepo(t, map[string]string{catalogFile: tc.base}, map[string]string{catalogFile: tc.head})
			r, err := Diff(context.Background(), "git:HEAD~1:catalog", "git:HEAD:catalog", WithDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Passed() {
				t.Errorf("a deliberate removal fails the diff: %v", r.Findings)
			}
			var got []want
			for _, f := range r.Findings {
				if f.Rule == RuleChannelRemoved || f.Rule == RulePackageRemoved || f.Rule == RuleNewlyStranded {
					got = append(got, want{f.Rule, f.Severity, f.Message[:min(len(f.Message), len(tc.want.Prefix))]})
				}
			}
			if diff := cmp.Diff([]want{tc.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			for _, p := range r.Packages {
				if len(p.NewlyStranded) > 0 {
					t.Errorf("the releases of what was removed deliberately are reported stranded: %+v", p.NewlyStranded)
				}
			}
		})
	}
}
