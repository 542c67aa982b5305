package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/project/config"
)

// realRepoProject copies a real repository of testdata/realrepos (its input) and writes its
// opack.yaml; the Go command is cut off the network and the module cache.
func realRepoProject(t *testing.T, name, version string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "realrepos", name, "input")
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	_, err := Init(context.Background(), dir, InitOptions{Version: version, OLM: emit.TargetBoth,
		BundleImage: "quay.io/example/" + name + "-bundle", CatalogImage: "quay.io/example/" + name + "-catalog"})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var builderOrCreatedAt = regexp.MustCompile(`(?m)^.*(operators\.operatorframework\.io/builder|createdAt:).*\n`)

// TestE2EBuildGoTypes: opack build regenerates the base CSV from the Go API types in memory, as
// operator-sdk's make bundle does: argocd-operator's committed base is stale, and the bundle's CSV equals
// operator-sdk v1.42.3's; config/ is not edited, the stale base is reported, and the step can be
// turned off.
func TestE2EBuildGoTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: three builds of a large real repository run in make test-slow")
	}
	exp := filepath.Join("..", "..", "testdata", "realrepos", "argocd-operator", "expected", "bundle", "manifests", "argocd-operator.clusterserviceversion.yaml")
	want, err := os.ReadFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join("config", "manifests", "bases", "argocd-operator.clusterserviceversion.yaml")
	for _, tt := range []struct {
		name    string
		images  []config.ImageAlias
		goTypes bool
	}{
		{"kustomization", nil, true},
		{"images of opack.yaml", []config.ImageAlias{{Name: "controller", NewName: "quay.io/argoprojlabs/argocd-operator", NewTag: "v0.19.0"}}, true},
		{"step turned off", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := realRepoProject(t, "argocd-operator", "0.19.0")
			before, _ := os.ReadFile(filepath.Join(dir, base))
			p := load(t, dir)
			p.Images = tt.images
			res, err := Build(context.Background(), p, BuildGoTypes(tt.goTypes))
			if err != nil {
				var se *StepError
				if errors.As(err, &se) {
					t.Logf("findings: %+v", se.Findings)
				}
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, p.Bundle.Dir, "manifests", "argocd-operator.clusterserviceversion.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			diff := cmp.Diff(builderOrCreatedAt.ReplaceAllString(string(want), ""), builderOrCreatedAt.ReplaceAllString(string(got), ""))
			stale := strings.Contains(strings.Join(res.Warnings, "\n"), filepath.ToSlash(base)+" is out of date with the Go API types")
			if tt.goTypes && (diff != "" || !stale) {
				t.Errorf("CSV differs from operator-sdk's (-want +got):\n%s\nstale base reported: %v in %q", diff, stale, res.Warnings)
			}
			if !tt.goTypes && (diff == "" || stale) {
				t.Errorf("with the step off the stale base must be used unreported: diff %q, warnings %q", diff, res.Warnings)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, base)); string(after) != string(before) {
				t.Errorf("build edited %s", base)
			}
		})
	}
}
