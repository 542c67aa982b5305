package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project/config"
)

// diffCatalog is a package with the chain 1.0.0 → 1.1.0 → 1.2.0 in channel stable.
const diffCatalog = `---
defaultChannel: stable
name: demo
schema: olm.package
---
entries:
- name: demo.v1.0.0
- name: demo.v1.1.0
  replaces: demo.v1.0.0
- name: demo.v1.2.0
  replaces: demo.v1.1.0
name: stable
package: demo
schema: olm.channel
`

func diffBundle(v string) string {
	return `---
image: example.com/demo-bundle:v` + v + `
name: demo.v` + v + `
package: demo
properties:
- type: olm.package
  value:
    packageName: demo
    version: ` + v + `
schema: olm.bundle
`
}

// commitCatalog writes catalog/index.yaml and a README into dir and commits them with go-git.
func commitCatalog(t *testing.T, dir, catalog string) {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeDiffFile(t, filepath.Join(dir, "catalog", "index.yaml"), catalog)
	writeDiffFile(t, filepath.Join(dir, "catalog", "README.md"), "not a catalog file\n")
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1_700_000_000, 0)}
	if _, err := wt.Commit("catalog", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

func writeDiffFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFBCDiffFindings(t *testing.T) {
	full := diffCatalog + diffBundle("1.0.0") + diffBundle("1.1.0") + diffBundle("1.2.0")
	// 1.1.0 gone, 1.2.0 still replacing it and now skipping 1.0.0: both still reach the head.
	safe := strings.Replace(diffCatalog, "- name: demo.v1.1.0\n  replaces: demo.v1.0.0\n- name: demo.v1.2.0\n  replaces: demo.v1.1.0\n",
		"- name: demo.v1.2.0\n  replaces: demo.v1.1.0\n  skips:\n  - demo.v1.0.0\n", 1) + diffBundle("1.0.0") + diffBundle("1.2.0")
	// 1.2.0 replaces 1.1.0, which is gone: 1.0.0 no longer reaches the head.
	stranding := strings.Replace(diffCatalog, "- name: demo.v1.1.0\n  replaces: demo.v1.0.0\n", "", 1) + diffBundle("1.0.0") + diffBundle("1.2.0")
	tests := []struct {
		name      string
		git       bool
		check     bool
		staged    string
		wantRules []string
		wantSev   []finding.Severity
	}{
		{name: "unchanged", git: true, check: true, staged: full},
		{name: "build does not compare", git: true, check: false, staged: stranding},
		{name: "bundle removed, chain kept", git: true, check: true, staged: safe},
		{name: "bundle removed from the middle", git: true, check: true, staged: stranding,
			wantRules: []string{"catalog/newly-stranded"}, wantSev: []finding.Severity{finding.SeverityError}},
		{name: "not in a git repository", git: false, check: true, staged: stranding,
			wantRules: []string{ruleFBCDiff}, wantSev: []finding.Severity{finding.SeverityInfo}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.git {
				commitCatalog(t, dir, full)
			}
			staged := t.TempDir()
			writeDiffFile(t, filepath.Join(staged, "index.yaml"), tc.staged)
			r := &run{p: &config.Project{Dir: dir}, o: &buildOptions{}, check: tc.check}
			got := r.fbcDiffFindings(context.Background(), config.Catalog{Name: "demo", Dir: "catalog", Mode: config.CatalogModeFBC}, staged)
			var rules []string
			var sevs []finding.Severity
			for _, f := range got {
				rules, sevs = append(rules, f.Rule), append(sevs, f.Severity)
				if !strings.HasPrefix(f.File, "catalog") {
					t.Errorf("finding on %q, want a file of the catalog folder: %v", f.File, f)
				}
			}
			if diff := cmp.Diff(tc.wantRules, rules); diff != "" {
				t.Errorf("rules (-want +got):\n%s\nfindings: %v", diff, got)
			}
			if diff := cmp.Diff(tc.wantSev, sevs); diff != "" {
				t.Errorf("severities (-want +got):\n%s", diff)
			}
		})
	}
}
