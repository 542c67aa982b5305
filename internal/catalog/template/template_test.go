package template

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/fbc"
)

const templatesDir = "../../../testdata/opm/templates"

// fakeTemplateRenderer renders an image reference the way the goldens' fake renderer did
// (as operator-registry's semver tests do): the tag is the bundle name "<pkg>.v<version>";
// the bundle provides one API and lists its own image as a related image.
func fakeTemplateRenderer(calls *atomic.Int64) BundleRenderer {
	return func(_ context.Context, ref string) (*fbc.DeclarativeConfig, error) {
		if calls != nil {
			calls.Add(1)
		}
		name := ref[strings.LastIndex(ref, ":")+1:]
		pkg, version, ok := strings.Cut(name, ".v")
		if !ok {
			return nil, fmt.Errorf("fake renderer: tag of %q is not <package>.v<version>", ref)
		}
		return &fbc.DeclarativeConfig{Bundles: []fbc.Bundle{{
			Schema:  fbc.SchemaBundle,
			Name:    name,
			Package: pkg,
			Image:   ref,
			Properties: []fbc.Property{
				fbc.NewGVKProperty("example.com", "v1", "Test"),
				fbc.NewPackageProperty(pkg, version),
			},
			RelatedImages: []fbc.RelatedImage{{Image: ref}},
		}}}, nil
	}
}

// TestRenderTemplateGolden reproduces every case of golden/opm/templates: the rendered FBC
// (YAML) or the error, with the same fake renderer opm's goldens were made with.
func TestRenderTemplateGolden(t *testing.T) {
	cases, err := os.ReadDir(templatesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 13 {
		t.Fatalf("want the 13 golden template cases, found %d", len(cases))
	}
	for _, c := range cases {
		dir := filepath.Join(templatesDir, c.Name())
		t.Run(c.Name(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "template.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := RenderTemplate(context.Background(), data, "", fakeTemplateRenderer(nil))
			if wantErr, rerr := os.ReadFile(filepath.Join(dir, "expected_error.txt")); rerr == nil {
				if err == nil {
					t.Fatalf("want error %q, got none", wantErr)
				}
				if diff := cmp.Diff(strings.TrimSuffix(string(wantErr), "\n"), err.Error()); diff != "" {
					t.Errorf("error differs from opm (-opm +opack):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := fbc.WriteYAML(*cfg, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("rendered template differs from opm (-opm +opack):\n%s", diff)
			}
			// `opm alpha render-template -o mermaid` draws OLM v0 semantics.
			wantMermaid, err := os.ReadFile(filepath.Join(dir, "expected-mermaid.txt"))
			if err != nil {
				t.Fatal(err)
			}
			var mermaid bytes.Buffer
			if err := graph.WriteMermaid(cfg, &mermaid, graph.GraphOptions{DrawV0Semantics: true}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(wantMermaid), mermaid.String()); diff != "" {
				t.Errorf("mermaid differs from opm (-opm +opack):\n%s", diff)
			}
		})
	}
}

func TestRenderTemplateTypeAndSchemaErrors(t *testing.T) {
	tests := []struct {
		name, typ, data, want string
	}{
		{"no schema", "", "entries: []\n", "auto-detecting template type: template input missing required 'schema' field"},
		{"unknown schema", "", "schema: olm.template.substitutes\n", "auto-detecting template type: unknown template schema: olm.template.substitutes"},
		{"unknown type", "composite", "schema: olm.semver\n", `invalid template type "composite"`},
		{"basic given a semver template", "basic", "schema: olm.semver\n", `template has unknown schema ("olm.semver"), should be "olm.template.basic"`},
		{"semver given a basic template", "semver", "schema: olm.template.basic\n", `render: unable to read file: readFile: input file has unknown schema, should be "olm.semver"`},
		{"semver without bundles", "", "schema: olm.semver\n", "render: no bundles specified or no bundles could be rendered"},
		{"semver two packages", "", "schema: olm.semver\nstable:\n  bundles:\n  - image: q/a:foo.v1.0.0\n  - image: q/a:bar.v1.0.1\n",
			`render: unable to post-process bundle info: bundle "bar" does not belong to this package: "foo"`},
		{"semver bad version", "", "schema: olm.semver\nstable:\n  bundles:\n  - image: q/a:foo.vX\n",
			`render: unable to post-process bundle info: bundle "foo.vX" has invalid version "X"`},
		{"semver renderer error", "", "schema: olm.semver\nstable:\n  bundles:\n  - image: q/a:nover\n", "fake renderer: tag of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RenderTemplate(context.Background(), []byte(tt.data), tt.typ, fakeTemplateRenderer(nil))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want an error containing %q, got %v", tt.want, err)
			}
		})
	}
}

// TestRenderTemplateRendersEachReferenceOnce: a bundle listed in several channels is rendered once.
func TestRenderTemplateRendersEachReferenceOnce(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(templatesDir, "semver-default", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	if _, err := RenderTemplate(context.Background(), data, "semver", fakeTemplateRenderer(&calls)); err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 11 {
		t.Errorf("want 11 distinct references rendered once each, got %d renders", got)
	}
}

// TestRenderTemplateLocalBundleFolders: unlike opm, bundle entries may name bundle folders
// (relative to the template), rendered by the real renderer.
func TestRenderTemplateLocalBundleFolders(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"baz-bundle-v1.0.0", "baz-bundle-v1.0.1", "baz-bundle-v1.1.0"} {
		catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, n), filepath.Join(root, "bundles", n))
	}
	semverTpl := "schema: olm.semver\nstable:\n  bundles:\n" +
		"  - image: bundles/baz-bundle-v1.0.0\n  - image: bundles/baz-bundle-v1.0.1\n  - image: bundles/baz-bundle-v1.1.0\n"
	r, err := render.NewRenderer(render.WithAllowedRefs(render.RefBundleImage|render.RefBundleDir), render.WithImageRefTemplate("quay.io/example/{{.Package}}-bundle:v{{.Version}}"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := RenderTemplate(context.Background(), []byte(semverTpl), "", LocalBundleRenderer(root, r.RenderBundle))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Packages) != 1 || cfg.Packages[0].Name != "baz" || cfg.Packages[0].DefaultChannel != "stable-v1.1" {
		t.Fatalf("package: %+v", cfg.Packages)
	}
	var got []string
	for _, c := range cfg.Channels {
		for _, e := range c.Entries {
			got = append(got, fmt.Sprintf("%s %s replaces=%q skips=%v", c.Name, e.Name, e.Replaces, e.Skips))
		}
	}
	want := []string{
		`stable-v1.0 baz.v1.0.0 replaces="" skips=[]`,
		`stable-v1.0 baz.v1.0.1 replaces="" skips=[baz.v1.0.0]`,
		`stable-v1.1 baz.v1.1.0 replaces="baz.v1.0.1" skips=[baz.v1.0.0]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	for _, b := range cfg.Bundles {
		if !strings.HasPrefix(b.Image, "quay.io/example/baz-bundle:v1.") {
			t.Errorf("bundle %s: image %q not from the image template", b.Name, b.Image)
		}
	}

	basicTpl := "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: bundles/baz-bundle-v1.0.0\n"
	cfg, err = RenderTemplate(context.Background(), []byte(basicTpl), "", LocalBundleRenderer(root, r.RenderBundle))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Bundles) != 1 || cfg.Bundles[0].Name != "baz.v1.0.0" {
		t.Fatalf("basic template bundle folder not rendered: %+v", cfg.Bundles)
	}
}
