package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/finding"
)

// TestE2ECheckAdoptedPrintsTheChange adopts openshift/lightspeed-operator (testdata/adopt: a file-based
// catalog with published releases whose upgrade edges have CRD findings no build can change), builds
// and commits its next release, then checks the release after it with a field added to its CRD, then
// removed: opack check prints the findings about the change, and the findings on published releases
// as one line for the package (every one with --published); what the bundle generator drops is said
// when the bundle changes (or with -v), not on every run.
func TestE2ECheckAdoptedPrintsTheChange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a real repository's releases")
	}
	src, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "adopt", "lightspeed-operator"))
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// lightspeed-catalog/ holds the 0.2.x tech preview, whose upgrade to 1.x is unsafe: adopt the
	// 4.16 catalog only, as the project's own adoption test does.
	for _, n := range []string{"lightspeed-catalog", "lightspeed-catalog.Dockerfile"} {
		if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	commit := func() {
		t.Helper()
		wt, err := repo.Worktree()
		if err != nil {
			t.Fatal(err)
		}
		if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
			t.Fatal(err)
		}
		sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1_700_000_000, 0)}
		if _, err := wt.Commit("release", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	commit()
	for _, args := range [][]string{{"init"}, {"build", "--version", "1.1.4"}} {
		if code, out, stderr := runOpack(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
	}
	commit()

	code, out, stderr := runOpack(t, "", "check")
	if code != exitOK {
		t.Fatalf("check after build: exit %d\n%s%s", code, out, stderr)
	}
	requirePublishedFolded(t, out)
	if strings.Contains(stderr, "dropped:") {
		t.Errorf("check of an unchanged bundle says what was dropped:\n%s", stderr)
	}
	if _, _, stderr := runOpack(t, "", "check", "-v"); !strings.Contains(stderr, "dropped: Namespace openshift-lightspeed") {
		t.Errorf("check -v does not say what was dropped:\n%s", stderr)
	}
	if _, out, _ := runOpack(t, "", "check", "--published"); strings.Count(out, finding.PublishedPrefix) < 2 {
		t.Errorf("check --published does not list the findings on published releases:\n%s", out)
	}

	crdFile := filepath.Join(dir, "config", "crd", "bases", "ols.openshift.io_olsconfigs.yaml")
	editSpec(t, crdFile, func(props map[string]any) { props["note"] = map[string]any{"type": "string"} })
	code, out, stderr = runOpack(t, "", "check", "--version", "1.1.5")
	if code != exitFindings || !strings.Contains(out, "bundle/manifests/ols.openshift.io_olsconfigs.yaml is out of date") {
		t.Fatalf("check of 1.1.5 with a field added: exit %d, want %d and the bundle out of date\n%s%s", code, exitFindings, out, stderr)
	}
	requirePublishedFolded(t, out)
	if !strings.Contains(stderr, "dropped: Namespace openshift-lightspeed") {
		t.Errorf("the bundle changed, and check does not say what was dropped:\n%s", stderr)
	}

	editSpec(t, crdFile, func(props map[string]any) { delete(props, "featureGates") })
	code, out, stderr = runOpack(t, "", "check", "--version", "1.1.5")
	if code != exitFindings {
		t.Fatalf("check of 1.1.5 with a field removed: exit %d, want %d\n%s%s", code, exitFindings, out, stderr)
	}
	if !strings.Contains(out, "upgrade from lightspeed-operator.v1.1.4 to 1.1.5: olsconfigs.ols.openshift.io v1alpha1 ^.spec.featureGates: field removed") ||
		strings.Contains(out, finding.PublishedPrefix) {
		t.Errorf("check of 1.1.5 with a field removed does not report that change alone:\n%s", out)
	}
}

// requirePublishedFolded fails unless out (check's text output) gives the findings on published
// releases as one line for package lightspeed-operator and none of them one by one.
func requirePublishedFolded(t *testing.T, out string) {
	t.Helper()
	summaries := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, finding.PublishedPrefix) {
			t.Errorf("a finding on a published release is printed one by one: %s", line)
		}
		if strings.HasPrefix(line, `info: lightspeed-catalog-4.16: package "lightspeed-operator": `) && strings.Contains(line, "findings on releases already published") {
			summaries++
		}
	}
	if summaries != 1 {
		t.Errorf("%d summary lines of the published findings, want 1:\n%s", summaries, out)
	}
}

// editSpec edits the properties of spec in the first version's schema of the CRD in file.
func editSpec(t *testing.T, file string, edit func(props map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	version := crd["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
	root := version["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
	edit(root["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any))
	if data, err = yaml.Marshal(crd); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
