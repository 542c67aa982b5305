package project

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project/config"
)

// sizeField is the size property of the go/v4 sample's Memcached CRD.
const sizeField = `              size:
                description: Size defines the number of Memcached instances
                format: int32
                maximum: 3
                minimum: 1
                type: integer
`

const crdFile = "config/crd/bases/cache.example.com_memcacheds.yaml"

// sampleProject copies the go/v4 sample into a temporary folder and writes its opack.yaml.
func sampleProject(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "project", "memcached-operator")
	dir := filepath.Join(t.TempDir(), "memcached-operator")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	_, err := Init(context.Background(), dir, InitOptions{Version: "0.0.1", OLM: emit.TargetBoth,
		BundleImage: "quay.io/example/memcached-operator-bundle", CatalogImage: "quay.io/example/memcached-operator-catalog"})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// snapshot hashes every file of the project outside config/ (the outputs and opack.yaml).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == "config" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		out[filepath.ToSlash(rel)] = fmt.Sprintf("%x %s", sha256.Sum256(data), info.ModTime())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func load(t *testing.T, dir string) *config.Project {
	t.Helper()
	p, err := config.Load(filepath.Join(dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuildOffline runs the offline release flow on the go/v4 sample: first build, an unchanged
// rebuild, check, an unsafe CRD change that fails and changes nothing, its waiver, and drift.
func TestBuildOffline(t *testing.T) {
	ctx := context.Background()
	dir := sampleProject(t)
	res, err := Build(ctx, load(t, dir))
	if err != nil {
		t.Fatalf("first build: %v", err)
	}
	wantWritten := []string{"_output/images/bundle", "_output/images/memcached-operator-catalog", "bundle", "bundle.Dockerfile",
		"catalog", "catalog-template.yaml", "deploy/olmv0", "deploy/olmv1", "opack.owned"}
	if diff := cmp.Diff(wantWritten, res.Written); diff != "" {
		t.Errorf("first build wrote (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(res.Bundle.Digest, "quay.io/example/memcached-operator-bundle@sha256:") {
		t.Errorf("bundle digest reference %q", res.Bundle.Digest)
	}
	tmpl, _ := os.ReadFile(filepath.Join(dir, "catalog-template.yaml"))
	if !strings.Contains(string(tmpl), "image: "+res.Bundle.Digest) {
		t.Errorf("the template does not reference the bundle by digest:\n%s", tmpl)
	}
	cs, _ := os.ReadFile(filepath.Join(dir, "deploy", "olmv0", "catalogsource.yaml"))
	if !strings.Contains(string(cs), "image: "+res.Catalogs[0].Digest) {
		t.Errorf("the CatalogSource does not point at the catalog image %s:\n%s", res.Catalogs[0].Digest, cs)
	}

	built := snapshot(t, dir)
	t.Run("rebuild changes nothing", func(t *testing.T) {
		res, err := Build(ctx, load(t, dir))
		if err != nil || len(res.Written) != 0 {
			t.Fatalf("rebuild: wrote %v, err %v; want nothing written", res.Written, err)
		}
		if diff := cmp.Diff(built, snapshot(t, dir)); diff != "" {
			t.Errorf("rebuild changed the project (-before +after):\n%s", diff)
		}
	})
	t.Run("check passes", func(t *testing.T) {
		res, err := Check(ctx, load(t, dir))
		if err != nil || res.Diff != "" {
			t.Fatalf("check: err %v, diff:\n%s", err, res.Diff)
		}
	})

	crdPath := filepath.Join(dir, crdFile)
	editFile(t, crdPath, sizeField, "")
	t.Run("unsafe CRD change fails and changes nothing", func(t *testing.T) {
		_, err := Build(ctx, load(t, dir), BuildVersion("0.0.2"))
		var se *StepError
		if !errors.As(err, &se) || se.Step != StepCRDUpgrade || !errors.Is(err, ErrFindings) {
			t.Fatalf("build 0.0.2: %v; want a crd-upgrade StepError with findings", err)
		}
		if len(se.Findings) != 1 || !strings.Contains(se.Findings[0].Message, "^.spec.size: field removed") ||
			se.Findings[0].File != "bundle/manifests/cache.example.com_memcacheds.yaml" {
			t.Errorf("findings %v; want the removed spec.size in the bundle's CRD file", se.Findings)
		}
		if len(se.Findings) == 1 && !strings.Contains(se.Findings[0].Message, "; source: "+crdFile+" (the bundle's file is generated from it)") {
			t.Errorf("finding %q does not name the source file %s", se.Findings[0].Message, crdFile)
		}
		if diff := cmp.Diff(built, snapshot(t, dir)); diff != "" {
			t.Errorf("a failed build changed the project (-before +after):\n%s", diff)
		}
	})
	t.Run("a waiver accepts the reviewed change", func(t *testing.T) {
		p := load(t, dir)
		p.Waivers = []config.Waiver{{Rule: "field-removed", CRD: "memcacheds.cache.example.com", Path: "spec.size", Reason: "never read"}}
		res, err := Check(ctx, p, BuildVersion("0.0.2"))
		if err != nil {
			t.Fatalf("check with the waiver: %v", err)
		}
		if !hasFinding(res.Findings, finding.SeverityInfo, "waived in") {
			t.Errorf("findings %v; want the waived finding as info", res.Findings)
		}
		// opack.yaml differs too: build --version 0.0.2 saves the version in it.
		want := []string{"bundle", "catalog", "catalog-template.yaml", "deploy/olmv0", "deploy/olmv1", "opack.yaml"}
		if diff := cmp.Diff(want, res.Written); diff != "" {
			t.Errorf("check of 0.0.2 reports as differing (-want +got):\n%s", diff)
		}
		if !strings.Contains(res.Diff, "+      replaces: memcached-operator.v0.0.1") {
			t.Errorf("the diff does not add 0.0.2 replacing 0.0.1:\n%s", res.Diff)
		}
		if diff := cmp.Diff(built, snapshot(t, dir)); diff != "" {
			t.Errorf("check changed the project (-before +after):\n%s", diff)
		}
	})
	t.Run("check reports drift", func(t *testing.T) {
		// Version 0.0.1 has no previous release, so the removed field shows as drift, and as a
		// change of the released 0.0.1.
		res, err := Check(ctx, load(t, dir))
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrFindings) || len(se.Findings) != 1 || se.Findings[0].Rule != RuleReleasedVersionChanged {
			t.Fatalf("check: %v; want one %s finding", err, RuleReleasedVersionChanged)
		}
		if !containsAll(res.Written, "bundle") || !strings.Contains(res.Diff, "-              size:") {
			t.Errorf("check after removing size from config/: written %v, diff:\n%s", res.Written, res.Diff)
		}
	})
}

func hasFinding(fs []finding.Finding, sev finding.Severity, substr string) bool {
	for _, f := range fs {
		if f.Severity == sev && strings.Contains(f.Message, substr) {
			return true
		}
	}
	return false
}

func containsAll(list []string, want ...string) bool {
	have := append([]string(nil), list...)
	sort.Strings(have)
	for _, w := range want {
		i := sort.SearchStrings(have, w)
		if i == len(have) || have[i] != w {
			return false
		}
	}
	return true
}

// TestBuildImages checks that the images entries of opack.yaml reach the CSV the way `kustomize
// edit set image` would set them, without editing config/.
func TestBuildImages(t *testing.T) {
	dir := sampleProject(t)
	before := snapshot(t, dir)
	kust, _ := os.ReadFile(filepath.Join(dir, "config", "manager", "kustomization.yaml"))
	p := load(t, dir)
	p.Images = []config.ImageAlias{{Name: "controller", NewName: "registry.example.com/team/memcached", NewTag: "v9.9.9"}}
	res, err := Check(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Diff, "+                image: registry.example.com/team/memcached:v9.9.9\n") {
		t.Errorf("the CSV does not use the image of opack.yaml; diff:\n%s", res.Diff)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "config", "manager", "kustomization.yaml"))
	if diff := cmp.Diff(string(kust), string(after)); diff != "" {
		t.Errorf("config/manager/kustomization.yaml changed:\n%s", diff)
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("check changed the project:\n%s", diff)
	}
}

func TestCRDFindingsWaiversAndMigrations(t *testing.T) {
	p := &config.Project{File: "opack.yaml",
		Waivers: []config.Waiver{
			{Rule: "field-removed", CRD: "a.example.com", Path: "spec.size", Reason: "never read"},
			{Rule: "crd/enum-value-removed", Reason: "reviewed"},
		},
		Migrations: []config.Migration{{CRD: "a.example.com", Version: "v1alpha1"}},
	}
	r := &run{p: p, o: &buildOptions{}, res: &BuildResult{}}
	found := []crd.Finding{
		{Rule: crd.RuleFieldRemoved, Severity: crd.SeverityError, CRD: "a.example.com", Version: "v1", Path: "^.spec.size.minimum", Message: "field removed"},
		{Rule: crd.RuleFieldRemoved, Severity: crd.SeverityError, CRD: "b.example.com", Version: "v1", Path: "^.spec.size", Message: "field removed", Fix: "keep it"},
		{Rule: crd.RuleEnumValueRemoved, Severity: crd.SeverityError, CRD: "b.example.com", Version: "v1", Path: "^.spec.mode", Message: "enum value removed"},
		{Rule: crd.RuleStoredVersionRemoved, Severity: crd.SeverityError, CRD: "a.example.com", Version: "v1alpha1", Path: "spec.versions", Message: "stored version removed"},
		{Rule: crd.RuleStoredVersionRemoved, Severity: crd.SeverityError, CRD: "b.example.com", Version: "v1alpha1", Path: "spec.versions", Message: "stored version removed"},
	}
	got := r.crdFindings(found, "", func(f crd.Finding) string { return f.CRD }, "x")
	want := []finding.Severity{finding.SeverityInfo, finding.SeverityError, finding.SeverityInfo, finding.SeverityInfo, finding.SeverityError}
	for i, f := range got {
		if f.Severity != want[i] {
			t.Errorf("finding %d (%s): severity %s, want %s", i, f.Message, f.Severity, want[i])
		}
	}
	if !strings.HasSuffix(got[1].Message, "; fix: keep it") || !strings.Contains(got[0].Message, "waived in opack.yaml: never read") {
		t.Errorf("messages: %q, %q", got[0].Message, got[1].Message)
	}
	err := r.splitFindings(StepCRDUpgrade, got, "unsafe change(s)", "fix it")
	var se *StepError
	if !errors.As(err, &se) || !errors.Is(err, ErrFindings) || len(se.Findings) != 2 || len(r.res.Findings) != 3 {
		t.Errorf("splitFindings: %v (%d errors), %d kept", err, len(se.Findings), len(r.res.Findings))
	}
}

func TestStoredVersionFindings(t *testing.T) {
	crdWith := func(versions ...string) []*apiextv1.CustomResourceDefinition {
		c := &apiextv1.CustomResourceDefinition{}
		c.Name = "widgets.example.com"
		for i, v := range versions {
			c.Spec.Versions = append(c.Spec.Versions, apiextv1.CustomResourceDefinitionVersion{Name: v, Served: true, Storage: i == 0})
		}
		return []*apiextv1.CustomResourceDefinition{c}
	}
	bundles := map[string][]*apiextv1.CustomResourceDefinition{
		"op.v1": crdWith("v1alpha1"),       // stores v1alpha1
		"op.v2": crdWith("v1", "v1alpha1"), // storage moves to v1
		"op.v3": crdWith("v1"),             // v1alpha1 removed
	}
	get := func(_, name string) ([]*apiextv1.CustomResourceDefinition, bool) {
		b, ok := bundles[name]
		return b, ok
	}
	g := &graph.Graph{Edges: []graph.Edge{
		{Package: "op", Channel: "stable", From: "op.v1", To: "op.v2", Kind: graph.EdgeReplaces},
		{Package: "op", Channel: "stable", From: "op.v2", To: "op.v3", Kind: graph.EdgeReplaces},
	}}
	tests := []struct {
		name       string
		migrations []config.Migration
		want       finding.Severity
	}{
		{"removal without migration", nil, finding.SeverityError},
		{"declared migration", []config.Migration{{CRD: "widgets.example.com", Version: "v1alpha1"}}, finding.SeverityInfo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{p: &config.Project{File: "opack.yaml", Migrations: tt.migrations}, o: &buildOptions{}, res: &BuildResult{}}
			got := r.storedVersionFindings(g, get, "catalog")
			if len(got) != 1 || got[0].Severity != tt.want || got[0].Object != `package "op" bundle op.v3` ||
				!strings.Contains(got[0].Message, "version v1alpha1 was the storage version in op.v1") {
				t.Errorf("findings %v; want one %s about v1alpha1 stored by op.v1", got, tt.want)
			}
		})
	}
}
