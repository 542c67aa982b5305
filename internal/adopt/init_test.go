package adopt

import (
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/project"
	"github.com/opack/opack/internal/project/config"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/templates"
)

var update = flag.Bool("update", false, "rewrite testdata/init/opack.yaml")

// sample copies the go/v4 memcached-operator sample project into a temporary folder.
func sample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "project", "memcached-operator")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

var e2eInit = InitOptions{
	Version:      "0.0.1",
	BundleImage:  "quay.io/example/memcached-operator-bundle",
	CatalogImage: "quay.io/example/memcached-operator-catalog:latest",
}

func TestInitGolden(t *testing.T) {
	dir := sample(t)
	res, err := Init(context.Background(), dir, e2eInit)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"opack.yaml"}, res.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(res.Notes) > 0 {
		t.Errorf("notes: %q", res.Notes)
	}
	got, err := os.ReadFile(filepath.Join(dir, "opack.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "init", "opack.yaml")
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("opack.yaml (-want +got; go test -update rewrites it):\n%s", diff)
	}
	p := res.Project
	if p.Package != "memcached-operator" || p.Version != "0.0.1" || p.Deploy.OLMv0.Namespace != "memcached-operator-system" ||
		p.Deploy.OLMv1.Extension.Namespace != "memcached-operator-system" || p.DefaultChannel != "alpha" || p.Deploy.OLM != "both" {
		t.Errorf("project read back: %+v", p)
	}
}

func TestInitRefusesToOverwrite(t *testing.T) {
	dir := sample(t)
	if err := writeFile(filepath.Join(dir, "opack.yaml"), "keep me"); err != nil {
		t.Fatal(err)
	}
	_, err := Init(context.Background(), dir, e2eInit)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("err = %v, want ErrExists mentioning --force", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "opack.yaml")); string(data) != "keep me" {
		t.Errorf("opack.yaml was changed: %q", data)
	}
	opts := e2eInit
	opts.Force, opts.Makefile = true, true
	res, err := Init(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"opack.yaml", "Makefile.opack"}, res.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "Makefile.opack")); string(data) != string(templates.Makefile()) {
		t.Errorf("Makefile.opack differs from templates/Makefile.opack")
	}
}

func TestInitFromProjectFiles(t *testing.T) {
	tests := []struct {
		name     string
		makefile string
		files    map[string]string
		opts     InitOptions
		check    func(t *testing.T, p *config.Project, notes []string)
		wantErr  string
	}{
		{name: "makefile variables", makefile: "VERSION ?= 0.0.3\nIMAGE_TAG_BASE ?= quay.io/acme/memcached-operator\nBUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:v$(VERSION)\n",
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.Version != "0.0.3" || p.Bundle.Image != "quay.io/acme/memcached-operator-bundle" || p.Catalogs[0].Image != "quay.io/acme/memcached-operator-catalog:latest" {
					t.Errorf("version %q bundle %q catalog %q", p.Version, p.Bundle.Image, p.Catalogs[0].Image)
				}
				if len(notes) != 1 || !strings.Contains(notes[0], "quay.io/acme/memcached-operator-catalog:latest derived from IMAGE_TAG_BASE") {
					t.Errorf("notes = %q", notes)
				}
			}},
		{name: "a fixed bundle tag", makefile: "VERSION ?= 0.0.3\nIMAGE_TAG_BASE ?= quay.io/acme/memcached-operator\nIMAGE_TAG ?= latest\nBUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:$(IMAGE_TAG)\n",
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.Bundle.Image != "quay.io/acme/memcached-operator-bundle" {
					t.Errorf("bundle image %q", p.Bundle.Image)
				}
				if !strings.Contains(strings.Join(notes, "\n"), "BUNDLE_IMG quay.io/acme/memcached-operator-bundle:latest gives every bundle the same tag latest") {
					t.Errorf("notes = %q", notes)
				}
			}},
		{name: "no version anywhere", opts: InitOptions{BundleImage: "quay.io/a/b", CatalogImage: "quay.io/a/c:latest", OLM: emit.TargetV1, Channels: []string{"stable", "fast"}},
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.Version != "" || p.VersionFrom.GitTag == nil || *p.VersionFrom.GitTag.Prefix != "v" {
					t.Errorf("version %q versionFrom %+v", p.Version, p.VersionFrom)
				}
				if p.Deploy.OLM != "v1" || p.DefaultChannel != "stable" || p.Deploy.OLMv0.Channel != "stable" {
					t.Errorf("olm %q default channel %q", p.Deploy.OLM, p.DefaultChannel)
				}
				if len(notes) != 1 || !strings.Contains(notes[0], "git tags") {
					t.Errorf("notes = %q", notes)
				}
			}},
		{name: "bad flag value", opts: InitOptions{Version: "1.0", BundleImage: "quay.io/a/b", CatalogImage: "quay.io/a/c:latest"},
			wantErr: `the generated opack.yaml is invalid (check the flags)`},
		{name: "the version read from a file as make reads it", makefile: "VERSION ?= $(shell cat VERSION)\nIMAGE_TAG_BASE ?= quay.io/acme/m\n",
			files: map[string]string{"VERSION": "1.5.0\n"},
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.Version != "1.5.0" {
					t.Errorf("version %q, want 1.5.0", p.Version)
				}
			}},
		{name: "image names without a registry are not guessed",
			makefile: "VERSION ?= 0.0.3\nIMG_BASE ?= memcached-operator\nBUNDLE_IMG ?= $(IMG_BASE)-bundle:v$(VERSION)\nCATALOG_IMG ?= $(IMG_BASE)-catalog:v$(VERSION)\n",
			wantErr:  "bundle image memcached-operator-bundle names no registry"},
		{name: "an image edit the bundle's build does not read",
			makefile: "VERSION ?= 0.0.3\nIMAGE_TAG_BASE ?= quay.io/acme/m\nIMG ?= quay.io/acme/m:v$(VERSION)\nbundle:\n" +
				"\tcd config/manager && kustomize edit set image controller=$(IMG)\n\tcd other/operator && kustomize edit set image controller=$(IMG)\n" +
				"\tkustomize build config/manifests | operator-sdk generate bundle -q --overwrite --version $(VERSION)\n",
			files: map[string]string{"other/operator/kustomization.yaml": "resources: []\n"},
			check: func(t *testing.T, p *config.Project, notes []string) {
				if len(p.Images) != 1 || p.Images[0].Dir != "config/manager" {
					t.Errorf("images %+v, want only config/manager's", p.Images)
				}
				if !strings.Contains(strings.Join(notes, "\n"), "the kustomize build of config/manifests does not read other/operator") {
					t.Errorf("notes = %q", notes)
				}
			}},
		{name: "a default channel make bundle names but does not list",
			makefile: "VERSION ?= latest-snapshot\nIMAGE_TAG_BASE ?= quay.io/acme/m\nbundle:\n" +
				"\tkustomize build config/manifests | operator-sdk generate bundle -q --overwrite --default-channel stable-v$(VERSION) --version $(VERSION)\n",
			opts: InitOptions{Version: "1.0.0"},
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.DefaultChannel != "alpha" || strings.Join(p.Channels, ",") != "alpha" {
					t.Errorf("defaultChannel %q channels %q, want the first channel, alpha", p.DefaultChannel, p.Channels)
				}
				if !strings.Contains(strings.Join(notes, "\n"), "default channel stable-vlatest-snapshot is not one of its channels (alpha") {
					t.Errorf("notes = %q", notes)
				}
			}},
		{name: "deploy/ holds files opack did not write", makefile: "VERSION ?= 0.0.3\nIMAGE_TAG_BASE ?= quay.io/acme/m\n",
			files: map[string]string{"deploy/operator.yaml": "kind: Deployment\n"},
			check: func(t *testing.T, p *config.Project, notes []string) {
				if p.Outputs.Deploy != "olm-deploy" {
					t.Errorf("outputs.deploy %q, want olm-deploy", p.Outputs.Deploy)
				}
				if !strings.Contains(strings.Join(notes, "\n"), "outputs.deploy is not deploy, which holds files opack did not write") {
					t.Errorf("notes = %q", notes)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := sample(t)
			if tt.makefile != "" {
				if err := writeFile(filepath.Join(dir, "Makefile"), tt.makefile); err != nil {
					t.Fatal(err)
				}
			}
			for name, text := range tt.files {
				file := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := writeFile(file, text); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Init(context.Background(), dir, tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if _, err := os.Stat(filepath.Join(dir, "opack.yaml")); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("opack.yaml written despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, res.Project, res.Notes)
		})
	}
}

func TestInitWithoutProjectFile(t *testing.T) {
	_, err := Init(context.Background(), t.TempDir(), e2eInit)
	if err == nil || !strings.Contains(err.Error(), "PROJECT") || !strings.Contains(err.Error(), "root folder") {
		t.Fatalf("err = %v", err)
	}
	// A repository without PROJECT whose make bundle runs generate bundle (operator-sdk needs no
	// PROJECT) is adopted from the recipe.
	dir := sample(t)
	if err := os.Remove(filepath.Join(dir, "PROJECT")); err != nil {
		t.Fatal(err)
	}
	mk := "VERSION ?= 0.0.3\nIMAGE_TAG_BASE ?= quay.io/acme/m\nbundle:\n\tkustomize build config/manifests | operator-sdk generate bundle -q --overwrite --version $(VERSION) --package memcached-operator\n"
	if err := writeFile(filepath.Join(dir, "Makefile"), mk); err != nil {
		t.Fatal(err)
	}
	res, err := Init(context.Background(), dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Project.Package != "memcached-operator" || !strings.Contains(strings.Join(res.Notes, "\n"), "no PROJECT file") {
		t.Errorf("package %q, notes %q", res.Project.Package, res.Notes)
	}
}

// TestInitCatalogDirTaken: init does not pick a catalog folder holding files opack did not write
// (build replaces the rendered catalog's folder as a whole and would refuse, as on
// Kuadrant/limitador-operator, whose catalog/ holds a hand-written channel entry).
func TestInitCatalogDirTaken(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		owned   string
		wantDir string
		note    string
	}{
		{name: "free", wantDir: "catalog"},
		{name: "an empty folder", files: map[string]string{"catalog/.keep/": ""}, wantDir: "catalog"},
		{name: "a user's file", files: map[string]string{"catalog/channel-entry.yaml": "schema: olm.channel\n"}, wantDir: "catalogs/memcached-operator",
			note: "catalog holds files opack did not write (catalog/channel-entry.yaml): the rendered catalog goes to catalogs/memcached-operator"},
		{name: "opack's own files", files: map[string]string{"catalog/memcached-operator/catalog.json": "{}"}, owned: "catalog/memcached-operator/catalog.json\n", wantDir: "catalog"},
		{name: "the alternative taken too", files: map[string]string{"catalog/a.txt": "a", "catalogs/memcached-operator/b.txt": "b"}, wantDir: "catalogs/memcached-operator-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := sample(t)
			for rel, data := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if strings.HasSuffix(rel, "/") {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := writeFile(p, data); err != nil {
					t.Fatal(err)
				}
			}
			if tc.owned != "" {
				if err := writeFile(filepath.Join(dir, project.OwnedFile), tc.owned); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Init(context.Background(), dir, e2eInit)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.wantDir, res.Project.Catalogs[0].Dir); d != "" {
				t.Errorf("catalogs[0].dir (-want +got):\n%s", d)
			}
			if tc.note != "" && !strings.Contains(strings.Join(res.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", res.Notes, tc.note)
			}
		})
	}
}
