package adopt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/project/config"
)

// TestInitRealRepositories runs opack init on the real repositories of testdata/adopt (see
// testdata/adopt/SOURCE.md) and checks what it read from each Makefile against the Makefile
// (make would give the same values), and that what it cannot read is named with its line.
func TestInitRealRepositories(t *testing.T) {
	type want struct {
		Version, DefaultChannel, BundleImage string
		Channels, CatalogImages              []string
		Images                               []config.ImageAlias
		Notes                                []string // parts of notes that must be printed
	}
	tests := []struct {
		repo string
		want want
	}{
		{"lightspeed-operator", want{Version: "1.1.3", Channels: []string{"alpha"}, DefaultChannel: "alpha",
			BundleImage:   "quay.io/openshift-lightspeed/lightspeed-operator-bundle",
			CatalogImages: []string{"quay.io/openshift-lightspeed/lightspeed-operator-catalog:latest", "quay.io/openshift-lightspeed/lightspeed-operator-catalog:lightspeed-catalog"},
			Notes: []string{`Makefile:6: VERSION ?= latest: VERSION is "latest", not a semantic version`, "version 1.1.3 is the newest release in lightspeed-catalog-4.16",
				"lightspeed-catalog-4.16 also has stable", "CATALOG_IMG is not set"}}},
		{"authorino-operator", want{Channels: []string{"alpha"}, DefaultChannel: "alpha", BundleImage: "quay.io/kuadrant/authorino-operator-bundle",
			CatalogImages: []string{"quay.io/kuadrant/authorino-operator-catalog:latest"},
			Notes: []string{"generate bundle --version not read: BUNDLE_VERSION (Makefile:330: bundle: export BUNDLE_VERSION := $(BUNDLE_VERSION))",
				"Makefile:57: BUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:$(IMAGE_TAG): BUNDLE_IMG not read: uses IMAGE_TAG (Makefile:48: IMAGE_TAG=$(DEFAULT_IMAGE_TAG)): it is set under the condition at Makefile:46",
				"Makefile:336: cd config/manager && $(KUSTOMIZE) edit set image controller=$(OPERATOR_IMAGE): image not read",
				"catalog/authorino-operator-channel-entry.yaml holds blobs of the package but no complete catalog", "BUNDLE_IMG is not readable"}}},
		{"limitador-operator", want{Channels: []string{"alpha"}, DefaultChannel: "alpha", BundleImage: "quay.io/kuadrant/limitador-operator-bundle",
			CatalogImages: []string{"quay.io/kuadrant/limitador-operator-catalog:latest"},
			Notes: []string{"make/catalog.mk:4: CATALOG_IMG ?= $(IMAGE_TAG_BASE)-catalog:$(IMAGE_TAG): CATALOG_IMG not read", "$(call ...), which calls a user function",
				"generate bundle --version not read: BUNDLE_VERSION (Makefile:78: BUNDLE_VERSION = 0.0.0)"}}},
		{"node-healthcheck-operator", want{Version: "0.0.1", Channels: []string{"stable"}, DefaultChannel: "stable",
			BundleImage: "quay.io/medik8s/node-healthcheck-operator-bundle", CatalogImages: []string{"quay.io/medik8s/node-healthcheck-operator-catalog:latest"},
			Notes: []string{"Makefile:99: CATALOG_IMG ?= $(IMAGE_REGISTRY)/$(OPERATOR_NAME)-catalog:$(IMAGE_TAG): CATALOG_IMG is quay.io/medik8s/node-healthcheck-operator-catalog:latest with VERSION 0.0.1, and make gives it another way for another version"}}},
		{"multiarch-tuning-operator", want{Version: "1.3.4", Channels: []string{"stable"}, DefaultChannel: "stable",
			BundleImage: "registry.ci.openshift.org/origin/multiarch-tuning-operator-bundle", CatalogImages: []string{"registry.ci.openshift.org/origin/multiarch-tuning-operator-catalog"},
			Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "registry.ci.openshift.org/origin/multiarch-tuning-operator", NewTag: "main"}},
			Notes:  []string{"Makefile:2: include .env: no file matches"}}},
		{"rsct-operator", want{Version: "0.0.1-alpha4", Channels: []string{"alpha"}, DefaultChannel: "alpha",
			BundleImage: "ghcr.io/ocp-power-automation/rsct-operator-bundle", CatalogImages: []string{"ghcr.io/ocp-power-automation/rsct-operator-catalog"},
			Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "ghcr.io/ocp-power-automation/rsct-operator", NewTag: "{{.Version}}"}},
			Notes:  []string{"catalog/index.yaml holds blobs of the package but no complete catalog"}}},
		{"UptimeGuardian", want{Version: "0.0.3", Channels: []string{"alpha"}, DefaultChannel: "alpha",
			BundleImage: "ghcr.io/stakater/uptimeguardian-bundle", CatalogImages: []string{"ghcr.io/stakater/uptimeguardian-catalog:latest"},
			Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "ghcr.io/stakater/uptimeguardian", NewTag: "v{{.Version}}"}},
			Notes:  []string{"Makefile:39: BUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:v$(VERSION)$(GIT_TAG): BUNDLE_IMG not read: uses GIT_TAG is not set in the Makefile"}}},
	}
	for _, tt := range tests {
		t.Run(tt.repo, func(t *testing.T) {
			dir := adoptCopy(t, tt.repo)
			res, err := Init(context.Background(), dir, InitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Project
			got := want{Version: p.Version, Channels: p.Channels, DefaultChannel: p.DefaultChannel, BundleImage: p.Bundle.Image, Images: p.Images}
			for _, c := range p.Catalogs {
				got.CatalogImages = append(got.CatalogImages, c.Image)
			}
			notes := strings.Join(res.Notes, "\n")
			for _, n := range tt.want.Notes {
				if strings.Contains(notes, n) {
					got.Notes = append(got.Notes, n)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("init (-want +got):\n%s\nnotes:\n%s", diff, notes)
			}
		})
	}
}

// TestInitPerReleaseCatalogs adopts openshift/external-dns-operator (testdata/adopt/SOURCE.md),
// which keeps one catalog per OpenShift release (catalog/v4.N/catalog-template.yaml rendered to
// catalog.yaml beside it) and its package's catalog in opm's layout beside them: each becomes a
// catalog of its own (dir or file, template, image), in an opack.yaml its validation accepts.
func TestInitPerReleaseCatalogs(t *testing.T) {
	dir := adoptCopy(t, "external-dns-operator")
	res, err := Init(context.Background(), dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type cat struct{ Name, Mode, Template, Dir, File, Image string }
	var got []cat
	for _, c := range res.Project.Catalogs {
		got = append(got, cat{c.Name, c.Mode, c.Template, c.Dir, c.File, c.Image})
	}
	const repo = "quay.io/external-dns-operator/external-dns-operator-catalog"
	want := []cat{
		{"v4.12", "template", "catalog/v4.12/catalog-template.yaml", "", "catalog/v4.12/catalog.yaml", repo + ":latest"},
		{"v4.13", "template", "catalog/v4.13/catalog-template.yaml", "", "catalog/v4.13/catalog.yaml", repo + ":v4.13"},
		{"external-dns-operator", "fbc", "", "catalog/external-dns-operator", "", repo + ":external-dns-operator"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("catalogs (-want +got):\n%s\nnotes:\n%s", diff, strings.Join(res.Notes, "\n"))
	}
	if _, err := config.Load(filepath.Join(dir, config.DefaultFile)); err != nil {
		t.Errorf("init wrote a project its validation refuses: %v", err)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "not from kustomize build") {
			t.Errorf("go tool kustomize build is kustomize build: %s", n)
		}
	}
}

// TestInitEveryRealRepository runs opack init on every real repository of testdata (adopt,
// realrepos, adoptrepos): it writes an opack.yaml its own validation accepts, or stops with an
// error that says what to pass; it never writes one it then refuses.
func TestInitEveryRealRepository(t *testing.T) {
	var dirs []string
	for _, pattern := range []string{"adopt/*", "realrepos/*/input", "adoptrepos/*/input"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "testdata", pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if st, err := os.Stat(filepath.Join(d, "PROJECT")); err == nil && !st.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 25 {
		t.Fatalf("%d real repositories, want every one of testdata/adopt, realrepos and adoptrepos", len(dirs))
	}
	for _, src := range dirs {
		name, _ := filepath.Rel(filepath.Join("..", "..", "testdata"), src)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			opts := InitOptions{Version: "0.0.1", BundleImage: "quay.io/example/x-bundle", CatalogImage: "quay.io/example/x-catalog:latest"}
			res, err := Init(context.Background(), dir, opts)
			if err != nil {
				if strings.Contains(err.Error(), "is invalid") {
					t.Fatalf("init wrote a project file it refuses: %v", err)
				}
				if !strings.Contains(err.Error(), "fix: pass --") && !strings.Contains(err.Error(), "pass --") {
					t.Fatalf("init stopped without saying what to pass: %v", err)
				}
				return
			}
			p, err := config.Load(filepath.Join(dir, config.DefaultFile))
			if err != nil {
				t.Fatalf("init wrote a project file its validation refuses: %v\nnotes:\n%s", err, strings.Join(res.Notes, "\n"))
			}
			if len(p.Parts()) == 0 || p.Parts()[0].Package == "" {
				t.Errorf("no package in %+v", p)
			}
		})
	}
}
