package render

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// TestLoadRefWrongInput checks that what is not a catalog is named as what it is, without
// quoting whole objects, and that a missing path is not pulled from Docker Hub.
func TestLoadRefWrongInput(t *testing.T) {
	empty := t.TempDir()
	missing := filepath.Join(t.TempDir(), "nope")
	bundle := filepath.Join(renderBundlesDir, "foo-bundle-v0.1.0")
	tests := []struct {
		name, ref, want string
	}{
		{"bundle folder", bundle, bundle + " is a bundle folder (manifests/ and metadata/), not a file-based catalog; render it into one with `opack catalog render " + bundle + "`"},
		{"folder of bundles", renderBundlesDir, renderBundlesDir + " is a folder of bundles (bar-bundle-v0.1.0, bar-bundle-v0.2.0, bar-bundle-v1.0.0, ...), not a file-based catalog; render them into one with `opack catalog render " + renderBundlesDir + "/*/`"},
		{"empty folder", empty, empty + " holds no catalog objects (olm.package, olm.channel, olm.bundle or olm.deprecations): nothing to check"},
		{"missing path", missing, missing + ": no such file or folder, and not an image reference (give a folder, or an image as REGISTRY/REPO:TAG, REPO@DIGEST or oci:DIR[:TAG])"},
		{"bare word", "nope", "nope: no such file or folder, and not an image reference (give a folder, or an image as REGISTRY/REPO:TAG, REPO@DIGEST or oci:DIR[:TAG])"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fbc.LoadRef(context.Background(), tt.ref, nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LoadRef(%s) error (-want +got):\n%s", tt.ref, diff)
			}
			_, err = check.ValidateRef(context.Background(), tt.ref, nil, nil)
			if err == nil || err.Error() != tt.want {
				t.Errorf("ValidateRef(%s) error = %v, want %q (could not run, not findings)", tt.ref, err, tt.want)
			}
		})
	}
}

// TestLoadRefLayoutFolder loads a folder holding an OCI image layout given without "oci:".
func TestLoadRefLayoutFolder(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(opmTestdata, "fbc-index-declcfgs", "latest")
	layout := t.TempDir()
	p, err := image.NewLayoutPublisher(layout, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := image.PublishCatalog(ctx, dir, p); err != nil {
		t.Fatal(err)
	}
	got, err := fbc.LoadRef(ctx, layout, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(catalogtest.WriteString(t, catalogtest.LoadDir(t, dir), "json"), catalogtest.WriteString(t, got, "json")); diff != "" {
		t.Errorf("catalog from layout folder differs (-want +got):\n%s", diff)
	}
}

// TestRenderFolderOfBundles names a folder of bundle folders instead of dumping its objects.
func TestRenderFolderOfBundles(t *testing.T) {
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Render(context.Background(), renderBundlesDir)
	want := "render reference \"" + renderBundlesDir + "\": " + renderBundlesDir + " is a folder of bundles (bar-bundle-v0.1.0, bar-bundle-v0.2.0, bar-bundle-v1.0.0, ...), not a file-based catalog; render them into one with `opack catalog render " + renderBundlesDir + "/*/`"
	if err == nil || err.Error() != want {
		t.Errorf("Render(folder of bundles) error:\n got %v\nwant %s", err, want)
	}
}

func TestMissingSchemaExcerpt(t *testing.T) {
	long := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"description":"` + strings.Repeat("x", 2000) + `"}}`
	tests := []struct {
		name, in, want string
	}{
		{"short object quoted whole, as opm does", `{"hello":"world"}`, "object '{\"hello\":\"world\"}\n' is missing root schema field"},
		{"long object cut", long, "object '" + long[:160] + "... (" + strconv.Itoa(len(long)+1) + " bytes)' is missing root schema field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fbc.ParseStream([]byte(tt.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRenderLayoutImageName renders a bundle image from an OCI layout: the bundle's image is
// the full reference the layout records, the --image-ref-template one, or (with a warning)
// the oci: reference.
func TestRenderLayoutImageName(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1")
	tests := []struct {
		name, tag, tmpl string
		wantImage       func(ref string) string
		wantWarning     string
	}{
		{"full reference recorded", "quay.io/example/foo-bundle:v0.3.1", "", func(string) string { return "quay.io/example/foo-bundle:v0.3.1" }, ""},
		{"only a tag", "v1", "", func(ref string) string { return ref }, "the OCI layout records no full image reference"},
		{"template wins", "quay.io/example/foo-bundle:v0.3.1", "registry.example.com/{{.Package}}:v{{.Version}}", func(string) string { return "registry.example.com/foo:v0.3.1" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := image.NewLayoutPublisher(filepath.Join(t.TempDir(), "oci"), tt.tag)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := image.PublishBundle(ctx, dir, p)
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			r, err := NewRenderer(WithPuller(image.NewPuller()), WithImageRefTemplate(tt.tmpl), WithRenderLog(&log))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := r.Render(ctx, ref)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantImage(ref), cfg.Bundles[0].Image); diff != "" {
				t.Errorf("bundle image (-want +got):\n%s", diff)
			}
			if (tt.wantWarning == "") != (log.Len() == 0) || !strings.Contains(log.String(), tt.wantWarning) {
				t.Errorf("log = %q, want a warning containing %q", log.String(), tt.wantWarning)
			}
		})
	}
}

// TestBundleDirCRDsSkipsEmpty ignores the empty item a trailing comma leaves in --bundle a,b,.
func TestBundleDirCRDsSkipsEmpty(t *testing.T) {
	dir := filepath.Join(renderBundlesDir, "foo-bundle-v0.1.0")
	got, err := check.BundleDirCRDs([]string{dir, "", " "})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Errorf("BundleDirCRDs = %v, want one bundle", got)
	}
}

func TestGraphUnknownPackage(t *testing.T) {
	cfg := catalogtest.LoadDir(t, filepath.Join(opmTestdata, "fbc-index-declcfgs", "latest"))
	tests := []struct{ pkg, want string }{
		{"", ""},
		{"foo", ""},
		{"nosuch", `package "nosuch" is not in the catalog (packages: `},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			var out bytes.Buffer
			err := check.WriteGraph(context.Background(), cfg, &out, check.GraphMermaid, graph.GraphOptions{Package: tt.pkg, Unsafe: map[graph.EdgeKey]string{}}, nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("WriteGraph(-p %q) error = %q, want prefix %q", tt.pkg, got, tt.want)
			}
		})
	}
}

func TestBundleVersionsPackageCount(t *testing.T) {
	tests := []struct {
		name  string
		props string
		want  string
	}{
		{"none", `[]`, `bundle "b.v1" has 0 "olm.package" properties, expected exactly 1`},
		{"two", `[{"type":"olm.package","value":{"packageName":"b","version":"1.0.0"}},{"type":"olm.package","value":{"packageName":"b","version":"1.0.1"}}]`, `bundle "b.v1" has 2 "olm.package" properties, expected exactly 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"schema":"olm.bundle","name":"b.v1","package":"b","image":"x","properties":` + tt.props + `}`
			cfg, err := fbc.LoadReader(strings.NewReader(in), "in.json")
			if err != nil {
				t.Fatal(err)
			}
			_, err = graph.BundleVersions(cfg)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestOutputFormatErrors(t *testing.T) {
	cfg := &fbc.DeclarativeConfig{}
	tests := []struct {
		name  string
		write func() error
		want  string
	}{
		{"Write", func() error { return fbc.Write(*cfg, "x", &bytes.Buffer{}) }, `unknown output format "x": use one of json, yaml`},
		{"WriteDir", func() error { return fbc.WriteDir(*cfg, t.TempDir(), "x") }, `unknown output format "x": use one of json, yaml`},
		{"WriteGraph", func() error {
			return check.WriteGraph(context.Background(), cfg, &bytes.Buffer{}, "x", graph.GraphOptions{}, nil)
		}, `unknown output format "x": use one of mermaid, dot`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := tt.write(); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
