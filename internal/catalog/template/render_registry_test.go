package template

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/fbc"
)

// TestRenderOCIBundleImage builds a bundle image into an OCI layout with internal/image and
// renders oci:DIR: the result equals rendering the folder with the reference as its image.
func TestRenderOCIBundleImage(t *testing.T) {
	ctx := context.Background()
	for _, n := range []string{"foo-bundle-v0.3.1", "bar-bundle-v1.0.0"} {
		t.Run(n, func(t *testing.T) {
			dir := filepath.Join(renderBundlesDir, n)
			p, err := image.NewLayoutPublisher(filepath.Join(t.TempDir(), "oci"), "v1")
			if err != nil {
				t.Fatal(err)
			}
			ref, err := image.PublishBundle(ctx, dir, p)
			if err != nil {
				t.Fatal(err)
			}
			fromImage, err := render.NewRenderer(render.WithPuller(image.NewPuller()), render.WithMigrateLevel("all"))
			if err != nil {
				t.Fatal(err)
			}
			fromDir, err := render.NewRenderer(render.WithImageRefTemplate(ref), render.WithMigrateLevel("all"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(catalogtest.RenderToString(t, fromDir, true, dir), catalogtest.RenderToString(t, fromImage, true, ref)); diff != "" {
				t.Errorf("image render differs from folder render (-folder +image):\n%s", diff)
			}
		})
	}
}

// TestRenderOCICatalogImage renders a catalog image: the same blobs as the catalog folder.
func TestRenderOCICatalogImage(t *testing.T) {
	ctx := context.Background()
	data := readTemplate(t, "basic-example")
	cfg, err := RenderTemplate(ctx, data, "", fakeTemplateRenderer(nil))
	if err != nil {
		t.Fatal(err)
	}
	catalogDir := filepath.Join(t.TempDir(), "catalog")
	if err := fbc.WriteDir(*cfg, catalogDir, "yaml"); err != nil {
		t.Fatal(err)
	}
	p, err := image.NewLayoutPublisher(filepath.Join(t.TempDir(), "oci"), "latest")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := image.PublishCatalog(ctx, catalogDir, p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := render.NewRenderer(render.WithPuller(image.NewPuller()))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := fbc.WriteJSON(*cfg, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.String(), catalogtest.RenderToString(t, r, false, ref)); diff != "" {
		t.Errorf("catalog image render differs (-catalog +image):\n%s", diff)
	}
}
