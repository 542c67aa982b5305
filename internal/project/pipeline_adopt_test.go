package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeProject writes opack.yaml into dir.
func writeProject(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "opack.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildSeveralBundles builds two bundles of one repository (two profiles) as one release:
// each in its own folders, one opack.owned, check passing after; a bundle that fails leaves the
// other unwritten too.
func TestBuildSeveralBundles(t *testing.T) {
	ctx := context.Background()
	dir := sample(t)
	writeProject(t, dir, `apiVersion: opack.dev/v1alpha1
kind: Project
package: memcached-operator
version: 0.0.1
bundles:
- name: community
  bundle:
    image: quay.io/example/memcached-operator-bundle
  catalogs:
  - image: quay.io/example/memcached-operator-catalog:latest
- name: product
  channels: [stable]
  bundle:
    image: quay.io/example/product-bundle
  catalogs:
  - image: quay.io/example/product-catalog:latest
`)
	p := load(t, dir)
	if len(p.Parts()) != 2 || p.Parts()[1].Bundle.Dir != "bundle/product" || p.Parts()[1].Bundle.Dockerfile != "bundle/product.Dockerfile" {
		t.Fatalf("parts = %+v", p.Parts())
	}
	res, err := Build(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"_output/community/images/bundle", "_output/community/images/memcached-operator-catalog", "_output/product/images/bundle",
		"_output/product/images/memcached-operator-catalog", "bundle/community", "bundle/community.Dockerfile", "bundle/product",
		"bundle/product.Dockerfile", "catalog-templates/community.yaml", "catalog-templates/product.yaml", "catalogs/community",
		"catalogs/product", "deploy/community/olmv0", "deploy/community/olmv1", "deploy/product/olmv0", "deploy/product/olmv1", "opack.owned"}
	if diff := cmp.Diff(want, res.Written); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	ann, _ := os.ReadFile(filepath.Join(dir, "bundle", "product", "metadata", "annotations.yaml"))
	if !strings.Contains(string(ann), "channels.v1: stable") {
		t.Errorf("bundle/product has another bundle's channels:\n%s", ann)
	}
	owned, _ := os.ReadFile(filepath.Join(dir, OwnedFile))
	for _, f := range []string{"bundle/community/manifests/", "bundle/product/manifests/"} {
		if !strings.Contains(string(owned), f) {
			t.Errorf("%s lists nothing of %s", OwnedFile, f)
		}
	}
	if res, err := Check(ctx, load(t, dir)); err != nil || len(res.Written) != 0 {
		t.Fatalf("check after build: differs %v, %v", res.Written, err)
	}

	// the second bundle fails: neither is written
	before := snapshot(t, dir)
	data, _ := os.ReadFile(filepath.Join(dir, "opack.yaml"))
	writeProject(t, dir, strings.Replace(strings.Replace(string(data), "version: 0.0.1", "version: 0.0.2", 1), "channels: [stable]", "channels: [stable]\n  kustomizeDir: config/nope", 1))
	_, err = Build(ctx, load(t, dir))
	var se *StepError
	if !errors.As(err, &se) || !strings.Contains(se.Error(), "bundle product: ") {
		t.Fatalf("build with a broken second bundle: %v, want a step error naming bundle product", err)
	}
	after := snapshot(t, dir)
	delete(before, "opack.yaml")
	delete(after, "opack.yaml")
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("a failed build of several bundles wrote some (-before +after):\n%s", diff)
	}
}

// TestBuildCatalogFile renders a catalog template into one file beside it (catalog/v4.12/catalog.yaml,
// one catalog per OpenShift release), and check passes after.
func TestBuildCatalogFile(t *testing.T) {
	ctx := context.Background()
	dir := sample(t)
	writeProject(t, dir, `apiVersion: opack.dev/v1alpha1
kind: Project
package: memcached-operator
version: 0.0.1
bundle:
  image: quay.io/example/memcached-operator-bundle
catalogs:
- name: v4-12
  template: catalog/v4.12/catalog-template.yaml
  file: catalog/v4.12/catalog.yaml
  image: quay.io/example/memcached-operator-catalog:v4.12
- name: v4-13
  template: catalog/v4.13/catalog-template.yaml
  file: catalog/v4.13/catalog.yaml
  image: quay.io/example/memcached-operator-catalog:v4.13
`)
	res, err := Build(ctx, load(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"catalog/v4.12/catalog.yaml", "catalog/v4.13/catalog-template.yaml"} {
		if !contains(res.Written, f) {
			t.Errorf("build did not write %s: %v", f, res.Written)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "catalog", "v4.12", "catalog.yaml"))
	if !strings.HasPrefix(string(data), "---\n") || !strings.Contains(string(data), "schema: olm.bundle") {
		t.Errorf("catalog/v4.12/catalog.yaml is not one rendered catalog:\n%.300s", data)
	}
	if res, err := Check(ctx, load(t, dir)); err != nil || len(res.Written) != 0 {
		t.Fatalf("check after build: differs %v, %v", res.Written, err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestBuildRefusesAnotherPackage: a package other than the committed base CSV's or the committed
// bundle's is refused with both names (a package: taken from PROJECT while the Makefile passes
// --package would publish a bundle made from defaults).
func TestBuildRefusesAnotherPackage(t *testing.T) {
	ctx := context.Background()
	const proj = `apiVersion: opack.dev/v1alpha1
kind: Project
package: %s
version: 0.0.1
bundle:
  image: quay.io/example/x-bundle
catalogs:
- image: quay.io/example/x-catalog:latest
`
	t.Run("base CSV", func(t *testing.T) {
		dir := sample(t)
		if err := os.RemoveAll(filepath.Join(dir, "bundle")); err != nil {
			t.Fatal(err)
		}
		writeProject(t, dir, strings.Replace(proj, "%s", "memcached", 1))
		_, err := Build(ctx, load(t, dir))
		if err == nil || !strings.Contains(err.Error(), "the committed base CSV is for package memcached-operator") || !strings.Contains(err.Error(), "opack.yaml builds package memcached,") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("committed bundle", func(t *testing.T) {
		dir := sample(t)
		writeProject(t, dir, strings.Replace(proj, "%s", "memcached-operator", 1))
		ann := filepath.Join(dir, "bundle", "metadata", "annotations.yaml")
		data, _ := os.ReadFile(ann)
		if err := os.WriteFile(ann, []byte(strings.Replace(string(data), "package.v1: memcached-operator", "package.v1: memcached-product", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Build(ctx, load(t, dir))
		if err == nil || !strings.Contains(err.Error(), "the committed bundle is package memcached-product and ") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("Makefile --package", func(t *testing.T) {
		dir := sample(t)
		writeProject(t, dir, strings.Replace(proj, "%s", "memcached-operator", 1))
		_, err := Build(ctx, load(t, dir), BuildMakefilePackage("memcached-product", "Makefile:12"))
		if err == nil || !strings.Contains(err.Error(), "Makefile:12") || !strings.Contains(err.Error(), "builds package memcached-product (generate bundle --package)") {
			t.Fatalf("got %v", err)
		}
		if _, err := Build(ctx, load(t, dir), BuildMakefilePackage("memcached-operator", "Makefile:12")); err != nil {
			t.Fatalf("same package refused: %v", err)
		}
	})
}

// TestImagesAtAnyDepth: a kustomize folder two levels deep naming ../../default takes the images
// of opack.yaml (the Makefile's kustomize edit set image), in the kustomization of its folder only.
func TestImagesAtAnyDepth(t *testing.T) {
	ctx := context.Background()
	dir := sample(t)
	x := filepath.Join(dir, "config", "manifests", "x")
	if err := os.MkdirAll(filepath.Join(x, "bases"), 0o755); err != nil {
		t.Fatal(err)
	}
	base, _ := os.ReadFile(filepath.Join(dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml"))
	if err := os.WriteFile(filepath.Join(x, "bases", "memcached-operator.clusterserviceversion.yaml"), base, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(x, "kustomization.yaml"), []byte("resources:\n- bases/memcached-operator.clusterserviceversion.yaml\n- ../../default\n- ../../samples\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeProject(t, dir, `apiVersion: opack.dev/v1alpha1
kind: Project
package: memcached-operator
version: 0.0.1
kustomizeDir: config/manifests/x
bundle:
  image: quay.io/example/memcached-operator-bundle
catalogs:
- image: quay.io/example/memcached-operator-catalog:latest
images:
- name: controller
  dir: config/manager
  newName: quay.io/example/memcached-operator
  newTag: v{{.Version}}
`)
	if _, err := Build(ctx, load(t, dir)); err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "bundle", "manifests", "memcached-operator.clusterserviceversion.yaml"))
	if !strings.Contains(string(csv), "image: quay.io/example/memcached-operator:v0.0.1") {
		t.Errorf("the image of opack.yaml is not in the CSV")
	}
}
