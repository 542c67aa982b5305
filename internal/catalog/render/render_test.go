package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

const (
	renderBundlesDir  = "../../../testdata/opm/bundles-registry-v1"
	renderExpectedDir = "../../../testdata/opm/render-expected"
	goldenImageRefTpl = "test.registry/{{.Package}}-operator/{{.Package}}-bundle:v{{.Version}}"
)

func renderBundleNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(renderBundlesDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 11 {
		t.Fatalf("want the 11 golden bundles, found %d", len(names))
	}
	return names
}

// TestRenderBundleDirsGolden renders each golden bundle folder as `opm render` did.
func TestRenderBundleDirsGolden(t *testing.T) {
	variants := []struct {
		file string
		opts []RenderOption
		yaml bool
	}{
		{"expected.json", []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}, false},
		{"expected-csv-metadata.yaml", []RenderOption{WithImageRefTemplate(goldenImageRefTpl), WithMigrateLevel(migrateBundleObjectToCSVMetadata)}, true},
		{"expected-no-image.json", nil, false},
	}
	for _, name := range renderBundleNames(t) {
		for _, v := range variants {
			t.Run(name+"/"+v.file, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(renderExpectedDir, name, v.file))
				if err != nil {
					t.Fatal(err)
				}
				r, err := NewRenderer(v.opts...)
				if err != nil {
					t.Fatal(err)
				}
				got := catalogtest.RenderToString(t, r, v.yaml, filepath.Join(renderBundlesDir, name))
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("render differs from opm (-opm +opack):\n%s", diff)
				}
			})
		}
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	noAnnotations := filepath.Join(dir, "no-annotations")
	catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1"), noAnnotations)
	if err := os.Remove(filepath.Join(noAnnotations, "metadata", "annotations.yaml")); err != nil {
		t.Fatal(err)
	}
	noCSV := filepath.Join(dir, "no-csv")
	catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1"), noCSV)
	if err := os.Remove(filepath.Join(noCSV, "manifests", "foo.csv.yaml")); err != nil {
		t.Fatal(err)
	}
	missingCRD := filepath.Join(dir, "missing-crd")
	catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1"), missingCRD)
	if err := os.Remove(filepath.Join(missingCRD, "manifests", "foos.test.foo.crd.yaml")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file.db")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ref  string
		opts []RenderOption
		want string
	}{
		{"no annotations", noAnnotations, nil, "Could not find annotations file"},
		{"no csv", noCSV, nil, "no csv in bundle"},
		{"owned CRD missing", missingCRD, nil, "error checking provided apis in bundle foo.v0.3.1: couldn't find test.foo/v1/Foo (foos) in bundle"},
		{"regular file", file, nil, "has unsupported file type"},
		{"image without source", "quay.io/example/bundle:v1", nil, "rendering images is not enabled"},
		{"bundle dir not allowed", noCSV, []RenderOption{WithAllowedRefs(RefBundleImage)}, "cannot render bundle directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRenderer(tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Render(context.Background(), tt.ref)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want an error containing %q, got %v", tt.want, err)
			}
			if !strings.HasPrefix(err.Error(), "render reference ") {
				t.Errorf("error does not name the reference: %v", err)
			}
		})
	}
}

func TestRenderOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opt  RenderOption
		want string
	}{
		{"unknown migration", WithMigrateLevel("v2"), `unknown migration level "v2"`},
		{"bad template", WithImageRefTemplate("{{.Package"), "parsing image reference template"},
		{"no workers", withParallelism(0), "parallelism must be at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRenderer(tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want an error containing %q, got %v", tt.want, err)
			}
		})
	}
}

// TestRenderManyKeepsReferenceOrder renders all golden bundles at once, in parallel.
func TestRenderManyKeepsReferenceOrder(t *testing.T) {
	names := renderBundleNames(t)
	refs := make([]string, len(names))
	for i, n := range names {
		refs[i] = filepath.Join(renderBundlesDir, n)
	}
	r, err := NewRenderer(withParallelism(4))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range cfg.Bundles {
		got = append(got, b.Name)
	}
	want := []string{"bar.v0.1.0", "bar.v0.2.0", "bar.v1.0.0", "baz.v1.0.0", "baz.v1.0.1", "baz.v1.1.0",
		"foo.v0.1.0", "foo.v0.2.0", "foo.v0.2.0", "foo.v0.3.0", "foo.v0.3.1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bundles not in reference order (-want +got):\n%s", diff)
	}
}

func TestRenderPackageManifestDir(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.Render(context.Background(), "../../../testdata/opm/bundles-etcd-lib")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Packages) != 1 || cfg.Packages[0].Name != "etcd" || cfg.Packages[0].DefaultChannel != "alpha" {
		t.Fatalf("package: %+v", cfg.Packages)
	}
	if cfg.Packages[0].Description == "" || cfg.Packages[0].Icon == nil {
		t.Errorf("package description and icon should come from the default channel head")
	}
	got := map[string][]fbc.ChannelEntry{}
	for _, c := range cfg.Channels {
		got[c.Name] = c.Entries
	}
	want := map[string][]fbc.ChannelEntry{
		"alpha":  {{Name: "etcdoperator.v0.9.2"}},
		"beta":   {{Name: "etcdoperator.v0.9.0", Replaces: "etcdoperator-community.v0.6.1"}, {Name: "etcdoperator-community.v0.6.1"}},
		"stable": {{Name: "etcdoperator.v0.9.2"}},
	}
	// entries are sorted by name
	want["beta"] = []fbc.ChannelEntry{{Name: "etcdoperator-community.v0.6.1"}, {Name: "etcdoperator.v0.9.0", Replaces: "etcdoperator-community.v0.6.1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	if len(cfg.Bundles) != 4 {
		t.Errorf("want 4 bundles, got %d", len(cfg.Bundles))
	}
	for _, b := range cfg.Bundles {
		if b.Package != "etcd" {
			t.Errorf("bundle %s has package %q", b.Name, b.Package)
		}
	}
}

// TestRenderFBCDirsGolden renders the golden file-based catalogs as `opm render <dir>` did
// (JSON and YAML): blobs loaded, bundle objects moved last, related images sorted.
func TestRenderFBCDirsGolden(t *testing.T) {
	expectedRoot := "../../../testdata/opm/fbc-expected"
	cases, err := os.ReadDir(expectedRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 10 {
		t.Fatalf("want the 10 golden catalogs, found %d", len(cases))
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		input := filepath.Join("../../../testdata/opm", strings.Replace(c.Name(), "_", "/", 1))
		for _, format := range []string{"json", "yaml"} {
			t.Run(c.Name()+"/"+format, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(expectedRoot, c.Name(), "render."+format))
				if err != nil {
					t.Fatal(err)
				}
				got := catalogtest.RenderToString(t, r, format == "yaml", input)
				if diff := cmp.Diff(string(want), got); diff != "" {
					t.Errorf("render differs from opm (-opm +opack):\n%s", diff)
				}
			})
		}
	}
}

func TestRenderProgress(t *testing.T) {
	names := renderBundleNames(t)[:3]
	var refs []string
	for _, n := range names {
		refs = append(refs, filepath.Join(renderBundlesDir, n))
	}
	var calls []string
	r, err := NewRenderer(withParallelism(2), WithRenderProgress(func(done, total int) {
		calls = append(calls, fmt.Sprintf("%d/%d", done, total))
	}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Render(context.Background(), refs...); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1/3", "2/3", "3/3"}, calls); diff != "" {
		t.Errorf("progress calls (-want +got):\n%s", diff)
	}
}

// TestRenderReportsTheFailingReference: with several references failing or stopped, the error
// names the first reference that really failed.
func TestRenderReportsTheFailingReference(t *testing.T) {
	good := filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1")
	bad := t.TempDir() // an empty folder is an empty catalog: make it a broken bundle instead
	if err := os.MkdirAll(filepath.Join(bad, "manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(bad, "metadata"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer(withParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(context.Background(), good, bad, good, good)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("render reference %q: no bundle objects found", bad)) {
		t.Fatalf("want the broken bundle named, got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Render(ctx, good); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: want context.Canceled, got %v", err)
	}
}
