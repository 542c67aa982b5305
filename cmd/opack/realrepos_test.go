package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// realRepo is one trimmed public operator repository of testdata/realrepos with operator-sdk
// v1.42.3's recorded output (testdata/realrepos/SOURCE.md).
type realRepo struct {
	name, src       string
	baseArgs        []string // operator-sdk generate kustomize manifests flags of its Makefile
	bundleArgs      []string // operator-sdk generate bundle flags of its Makefile
	kustomizeDir    string
	outputDir       string
	manifestsOnly   bool // the repository's config/ cannot be built without `make manifests`
	manifestsFolder string
}

func realRepos(t *testing.T) []realRepo {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", "testdata", "realrepos"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var repos []realRepo
	for _, e := range entries {
		src := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(src, "input")); err != nil {
			continue
		}
		r := realRepo{name: e.Name(), src: src, kustomizeDir: "config/manifests", outputDir: "bundle"}
		r.baseArgs = strings.Fields(readOptional(t, filepath.Join(src, "kustomize-manifests.args")))
		r.bundleArgs = strings.Fields(readOptional(t, filepath.Join(src, "generate.args")))
		if d := strings.TrimSpace(readOptional(t, filepath.Join(src, "kustomize.dir"))); d != "" {
			r.kustomizeDir = d
		}
		for i, a := range r.bundleArgs {
			if a == "--output-dir" && i+1 < len(r.bundleArgs) {
				r.outputDir = r.bundleArgs[i+1]
			}
		}
		_, err := os.Stat(filepath.Join(src, "kustomize-manifests-only"))
		r.manifestsOnly = err == nil
		repos = append(repos, r)
	}
	if len(repos) < 6 {
		t.Fatalf("%d real repositories in %s, want at least 6", len(repos), root)
	}
	return repos
}

func readOptional(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// enterCopy copies the repository's input into a temporary folder, enters it, and takes the go
// command away (PATH holds nothing, no module cache, no network): opack reads the API types
// without it.
func (r realRepo) enterCopy(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), r.name)
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(r.src, "input"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dst)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	return dst
}

// builderRE matches the builder lines, the one deliberate difference (opack-<release> / opack-dev).
var builderRE = regexp.MustCompile(`(?m)^.*operators\.operatorframework\.io(\.metrics\.|/)builder.*\n`)

var createdAtRE2 = regexp.MustCompile(`createdAt: .*`)

func maskBuilder(s string) string {
	return createdAtRE2.ReplaceAllString(builderRE.ReplaceAllString(s, ""), "createdAt: (masked)")
}

// readTree reads every file below dir (slash paths relative to base).
func readTreeUnder(t *testing.T, base, dir string, mask func(string) string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(filepath.Join(base, dir), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		out[filepath.ToSlash(rel)] = mask(string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func same(s string) string { return s }

// compareWithOperatorSDK compares the base CSV folder exactly, and the bundle and Dockerfile with
// the builder lines deleted and createdAt masked.
func (r realRepo) compareWithOperatorSDK(t *testing.T, dir string) {
	t.Helper()
	exp := filepath.Join(r.src, "expected")
	if diff := cmp.Diff(readTreeUnder(t, exp, "config/manifests", same), readTreeUnder(t, dir, "config/manifests", same)); diff != "" {
		t.Errorf("config/manifests differs from operator-sdk v1.42.3's (-want +got):\n%s", diff)
	}
	if r.manifestsOnly {
		return
	}
	want := readTreeUnder(t, exp, r.outputDir, maskBuilder)
	got := readTreeUnder(t, dir, r.outputDir, maskBuilder)
	if len(want) < 4 {
		t.Fatalf("expected bundle %s/%s holds %d files: the recording is incomplete", exp, r.outputDir, len(want))
	}
	want["bundle.Dockerfile"] = maskBuilder(readOptional(t, filepath.Join(exp, "bundle.Dockerfile")))
	got["bundle.Dockerfile"] = maskBuilder(readOptional(t, filepath.Join(dir, "bundle.Dockerfile")))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bundle differs from operator-sdk v1.42.3's (-want +got):\n%s", diff)
	}
}

// shortRepos run with -short (under -race in make test-fast); every repository runs in make test-slow.
var shortRepos = map[string]bool{"self-node-remediation": true, "node-maintenance-operator": true, "opendatahub-operator": true}

// TestRealRepositoriesStepByStep runs a few real repositories' `make bundle` steps; the E2E test
// below runs them all.
func TestRealRepositoriesStepByStep(t *testing.T) {
	for _, r := range realRepos(t) {
		if shortRepos[r.name] {
			t.Run(r.name, r.stepByStep)
		}
	}
}

// TestE2ERealRepositoriesStepByStep: every real repository, step by step.
func TestE2ERealRepositoriesStepByStep(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs in make test-slow")
	}
	for _, r := range realRepos(t) {
		t.Run(r.name, r.stepByStep)
	}
}

// stepByStep runs a real repository's `make bundle` steps with opack — generate
// kustomize-manifests, then generate bundle from the kustomization — offline, and compares the
// base CSV and the bundle with operator-sdk v1.42.3's.
func (r realRepo) stepByStep(t *testing.T) {
	dir := r.enterCopy(t)
	args := append([]string{"generate", "kustomize-manifests", "--interactive=false"}, r.baseArgs...)
	code, out, stderr := runOpack(t, "", args...)
	if code != 0 {
		t.Fatalf("kustomize-manifests: exit %d\n%s%s", code, out, stderr)
	}
	if !r.manifestsOnly {
		args = append([]string{"generate", "bundle", "--kustomize-manifests=false", "--kustomize-dir", r.kustomizeDir}, r.bundleArgs...)
		if code, out, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("generate bundle: exit %d\n%s%s", code, out, stderr)
		}
	}
	r.compareWithOperatorSDK(t, dir)
	// a second run changes nothing and says so
	args = append([]string{"generate", "kustomize-manifests", "--interactive=false"}, r.baseArgs...)
	code, out, stderr = runOpack(t, "", args...)
	if code != 0 || strings.Contains(out, "wrote ") || !strings.Contains(out, "unchanged ") {
		t.Errorf("second kustomize-manifests: exit %d, want only unchanged lines:\n%s%s", code, out, stderr)
	}
}

// TestE2ERealRepositoriesOneCommand: `opack generate bundle` alone runs the kustomize-manifests step
// first, so one command gives operator-sdk's base CSV and bundle (make test-slow: without -race).
func TestE2ERealRepositoriesOneCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: runs in make test-slow")
	}
	for _, r := range realRepos(t) {
		if r.manifestsOnly {
			continue
		}
		t.Run(r.name, func(t *testing.T) {
			dir := r.enterCopy(t)
			args := append([]string{"generate", "bundle", "--kustomize-dir", r.kustomizeDir}, r.bundleArgs...)
			if code, out, stderr := runOpack(t, "", args...); code != 0 {
				t.Fatalf("generate bundle: exit %d\n%s%s", code, out, stderr)
			}
			r.compareWithOperatorSDK(t, dir)
		})
	}
}

// TestGenerateBundleFollowsMarkers: a changed marker reaches the bundle through `generate bundle`
// alone, `--check` reports the stale base first, and --kustomize-manifests=false leaves it stale.
func TestGenerateBundleFollowsMarkers(t *testing.T) {
	var r realRepo
	for _, rr := range realRepos(t) {
		if rr.name == "self-node-remediation" {
			r = rr
		}
	}
	dir := r.enterCopy(t)
	gen := []string{"generate", "bundle", "--version", "0.0.1"}
	if code, out, stderr := runOpack(t, "", gen...); code != 0 {
		t.Fatalf("generate bundle: exit %d\n%s%s", code, out, stderr)
	}
	types := filepath.Join(dir, "api", "v1alpha1", "selfnoderemediation_types.go")
	src, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	const old = `type=status,displayName="conditions"`
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s lacks %s", types, old)
	}
	if err := os.WriteFile(types, []byte(strings.Replace(string(src), old, `type=status,displayName="Health Conditions"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join("config", "manifests", "bases", "self-node-remediation.clusterserviceversion.yaml")
	code, out, _ := runOpack(t, "", append(gen, "--check")...)
	if code != 1 || !strings.Contains(out, "would regenerate "+base) {
		t.Errorf("--check after a marker change: exit %d, want 1 naming %s:\n%s", code, base, out)
	}
	if code, out, _ := runOpack(t, "", append(gen, "--kustomize-manifests=false", "--check")...); code != 0 {
		t.Errorf("--check without the step: exit %d, want 0 (the bundle matches the stale base):\n%s", code, out)
	}
	code, out, stderr := runOpack(t, "", gen...)
	if code != 0 || !strings.Contains(out, "wrote "+base+"\n") {
		t.Fatalf("generate bundle: exit %d, want a wrote line for the base:\n%s%s", code, out, stderr)
	}
	for _, f := range []string{base, filepath.Join("bundle", "manifests", "self-node-remediation.clusterserviceversion.yaml")} {
		if !strings.Contains(readOptional(t, filepath.Join(dir, f)), "displayName: Health Conditions") {
			t.Errorf("%s lacks the new display name", f)
		}
	}
	if code, out, _ := runOpack(t, "", append(gen, "--check")...); code != 0 {
		t.Errorf("--check after regenerating: exit %d\n%s", code, out)
	}
}
