package load

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const v1beta1CRD = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  version: v1alpha1
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            size: {type: integer, maximum: 5}
`

const csv = `apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata: {name: widget.v1.0.0}
spec:
  customresourcedefinitions:
    owned:
    - {name: widgets.example.com, version: v1alpha1, kind: Widget}
    required:
    - {name: gadgets.example.com, version: v1, kind: Gadget}
`

func TestCRDs(t *testing.T) {
	ctx := context.Background()
	t.Run("v1beta1 is converted with its top-level schema in every version", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"crd.yaml": v1beta1CRD})
		s, err := CRDs(ctx, filepath.Join(dir, "crd.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		c := s.CRDs[0]
		if len(c.Spec.Versions) != 1 || c.Spec.Versions[0].Name != "v1alpha1" || !c.Spec.Versions[0].Served || !c.Spec.Versions[0].Storage {
			t.Fatalf("versions = %+v, want v1alpha1 served and stored", c.Spec.Versions)
		}
		size := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"]
		if size.Maximum == nil || *size.Maximum != 5 {
			t.Errorf("spec.size = %+v, want maximum 5", size)
		}
	})
	t.Run("bundle folder: manifests only, CSV references kept", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{
			"manifests/crd.yaml": v1beta1CRD, "manifests/csv.yaml": csv,
			"metadata/annotations.yaml": "annotations: {}\n", "README.md": "not yaml",
		})
		s, err := CRDs(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		want := []VersionRef{{CRD: "gadgets.example.com", Version: "v1", CSV: "widget.v1.0.0"},
			{CRD: "widgets.example.com", Version: "v1alpha1", CSV: "widget.v1.0.0", Owned: true}}
		if diff := cmp.Diff(want, s.Refs); diff != "" {
			t.Errorf("refs (-want +got):\n%s", diff)
		}
		if got := s.Files["widgets.example.com"]; got != filepath.Join(dir, "manifests", "crd.yaml") {
			t.Errorf("file = %q", got)
		}
	})
	t.Run("kubectl List dump", func(t *testing.T) {
		list := "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSpace(v1beta1CRD), "\n", "\n  ") + "\n"
		dir := writeFiles(t, map[string]string{"live.yaml": list})
		s, err := CRDs(ctx, filepath.Join(dir, "live.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.CRDs) != 1 || s.CRDs[0].Name != "widgets.example.com" {
			t.Errorf("CRDs = %v", s.CRDs)
		}
	})
	t.Run("a CRD defined twice is an error naming both files", func(t *testing.T) {
		dir := writeFiles(t, map[string]string{"a.yaml": v1beta1CRD, "b.yaml": v1beta1CRD})
		_, err := CRDs(ctx, dir)
		if err == nil || !strings.Contains(err.Error(), "a.yaml") || !strings.Contains(err.Error(), "b.yaml") {
			t.Errorf("error = %v, want one naming a.yaml and b.yaml", err)
		}
	})
	t.Run("missing path", func(t *testing.T) {
		if _, err := CRDs(ctx, filepath.Join(t.TempDir(), "nope")); err == nil {
			t.Error("want an error")
		}
	})
}
