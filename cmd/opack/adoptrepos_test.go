package main

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/project/config"
)

var updateAdopt = flag.Bool("update-adopt", false, "rewrite testdata/adoptrepos/*/expected/init.out from what opack init prints")

// adoptRepo is one trimmed public operator repository of testdata/adoptrepos, with what its own
// `make bundle` wrote with operator-sdk v1.42.3 (testdata/adoptrepos/SOURCE.md).
type adoptRepo struct {
	name, src string
	initArgs  []string
	buildArgs []string
	// differences are the outputs that differ from operator-sdk's on purpose, with why.
	differences map[string]string
	// refusal is what a first build refuses on purpose (build.expect: its message), and fix the
	// files that the refusal's fix says to remove (build.fix) before building again.
	refusal string
	fix     []string
}

func adoptRepos(t *testing.T) []adoptRepo {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "adoptrepos"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var repos []adoptRepo
	for _, e := range entries {
		src := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(src, "input")); err != nil {
			continue
		}
		r := adoptRepo{name: e.Name(), src: src, differences: map[string]string{}}
		r.initArgs = strings.Fields(readOptional(t, filepath.Join(src, "init.args")))
		r.buildArgs = strings.Fields(readOptional(t, filepath.Join(src, "build.args")))
		r.refusal = strings.TrimSpace(readOptional(t, filepath.Join(src, "build.expect")))
		r.fix = strings.Fields(readOptional(t, filepath.Join(src, "build.fix")))
		for _, l := range strings.Split(readOptional(t, filepath.Join(src, "differences")), "\n") {
			if f, why, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, "#") {
				r.differences[f] = why
			}
		}
		repos = append(repos, r)
	}
	if len(repos) < 1 {
		t.Fatalf("%d repositories in %s, want at least 12", len(repos), root)
	}
	return repos
}

// shortAdopt run with -short; every repository runs in make test-slow.
var shortAdopt = map[string]bool{"bank-vaults-helm-operator": true, "galaxy-operator": true}

// TestAdoptRealRepositories adopts a few real repositories as a new user would (init, build,
// check); the E2E test below adopts them all.
func TestAdoptRealRepositories(t *testing.T) {
	for _, r := range adoptRepos(t) {
		if shortAdopt[r.name] {
			t.Run(r.name, r.adopt)
		}
	}
}

// TestE2EAdoptRealRepositories: every repository of testdata/adoptrepos, offline.
func TestE2EAdoptRealRepositories(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs in make test-slow")
	}
	for _, r := range adoptRepos(t) {
		t.Run(r.name, r.adopt)
	}
}

// adopt runs `opack init && opack build && opack check` on a copy of the repository, offline, and
// compares what build wrote with what the repository's own make bundle wrote with operator-sdk:
// the bundle folders and their Dockerfiles byte for byte (builder lines and createdAt masked), and
// config/manifests once `opack generate kustomize-manifests` (which build asks for when the
// committed base is stale: build does not edit config/) ran with the project's settings.
func (r adoptRepo) adopt(t *testing.T) {
	dir := realRepo{name: r.name, src: r.src}.enterCopy(t)
	code, out, stderr := runOpack(t, "", append([]string{"init"}, r.initArgs...)...)
	r.golden(t, "init.out", strings.ReplaceAll(out+stderr, dir, "<repo>"))
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	// init's output is a project opack itself accepts (also checked by build, below)
	p, err := config.Load(config.DefaultFile)
	if err != nil {
		t.Fatalf("init wrote a project file its validation refuses: %v", err)
	}
	code, out, stderr = runOpack(t, "", append([]string{"build"}, r.buildArgs...)...)
	if r.refusal != "" {
		if code != exitUsage || !strings.Contains(stderr, r.refusal) {
			t.Fatalf("build: exit %d, want %d with %q:\n%s%s", code, exitUsage, r.refusal, out, stderr)
		}
		for _, f := range r.fix {
			if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		code, out, stderr = runOpack(t, "", append([]string{"build"}, r.buildArgs...)...)
	}
	if code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, out, stderr)
	}
	buildOut := out + stderr
	if code, out, stderr := runOpack(t, "", "check"); code != 0 {
		t.Fatalf("check right after build: exit %d\n%s%s", code, out, stderr)
	}
	exp := filepath.Join(r.src, "expected")
	for _, b := range bundlesOf(p) {
		r.compare(t, readTreeUnder(t, exp, b.dir, maskBuilder), readTreeUnder(t, dir, b.dir, maskBuilder))
		want := map[string]string{b.dockerfile: maskBuilder(readOptional(t, filepath.Join(exp, b.dockerfile)))}
		got := map[string]string{b.dockerfile: maskBuilder(readOptional(t, filepath.Join(dir, b.dockerfile)))}
		r.compare(t, want, got)
		km := b.p.KustomizeManifests
		if km.Skip {
			continue
		}
		stale := !cmp.Equal(readTreeUnder(t, exp, km.OutputDir, same), readTreeUnder(t, dir, km.OutputDir, same))
		if stale && !strings.Contains(buildOut, "run opack generate kustomize-manifests") {
			t.Errorf("the committed base in %s is not operator-sdk's, and build did not say so:\n%s", km.OutputDir, buildOut)
		}
		args := []string{"generate", "kustomize-manifests", "--interactive=false", "--package", b.p.Package,
			"--input-dir", km.InputDir, "--output-dir", km.OutputDir, "--apis-dir", km.APIsDir}
		if code, out, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("generate kustomize-manifests: exit %d\n%s%s", code, out, stderr)
		}
		r.compare(t, readTreeUnder(t, exp, "config/manifests", same), readTreeUnder(t, dir, "config/manifests", same))
	}
	for f := range r.differences {
		_, errExp := os.Stat(filepath.Join(exp, f))
		_, errGot := os.Stat(filepath.Join(dir, f))
		if errExp != nil && errGot != nil {
			t.Errorf("differences names %s, which neither operator-sdk nor opack wrote", f)
		}
	}
}

// compare reports the files that differ, except the deliberate differences, which must differ.
func (r adoptRepo) compare(t *testing.T, want, got map[string]string) {
	t.Helper()
	names := map[string]bool{}
	for n := range want {
		names[n] = true
	}
	for n := range got {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		d := cmp.Diff(want[n], got[n])
		_, deliberate := r.differences[n]
		switch {
		case d != "" && !deliberate:
			t.Errorf("%s differs from what operator-sdk v1.42.3 wrote (-want +got):\n%s", n, d)
		case d == "" && deliberate:
			t.Errorf("%s is listed in differences (%s) but is operator-sdk's", n, r.differences[n])
		}
	}
}

// golden compares text with expected/<name>, or rewrites it with -update-adopt.
func (r adoptRepo) golden(t *testing.T, name, text string) {
	t.Helper()
	p := filepath.Join(r.src, "expected", name)
	if *updateAdopt {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(readOptional(t, p), text); diff != "" {
		t.Errorf("%s differs (-want +got; go test -run %s -update-adopt rewrites it):\n%s", p, t.Name(), diff)
	}
}

// projectBundle is one bundle of a project: its folder and Dockerfile.
type projectBundle struct {
	p               *config.Project
	dir, dockerfile string
}

func bundlesOf(p *config.Project) []projectBundle {
	var out []projectBundle
	for _, part := range p.Parts() {
		out = append(out, projectBundle{p: part, dir: part.Bundle.Dir, dockerfile: part.Bundle.Dockerfile})
	}
	return out
}
