package crd

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/image"
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

// recordingPuller records which references loadSide pulls; it pulls nothing.
type recordingPuller struct{ refs []string }

func (p *recordingPuller) Attachments(context.Context, string, string) (*image.Attachments, error) {
	return nil, errors.New("not used")
}

func (p *recordingPuller) Inspect(context.Context, string) (*image.Report, error) {
	return nil, errors.New("not an inspector")
}

func (p *recordingPuller) Unpack(_ context.Context, ref, _ string) (*image.Unpacked, error) {
	p.refs = append(p.refs, ref)
	return nil, errors.New("recorded")
}

// TestLoadSideSource checks that a CRD argument is an image exactly when image.ParseSource says so.
func TestLoadSideSource(t *testing.T) {
	layout := writeFiles(t, map[string]string{"oci-layout": `{"imageLayoutVersion":"1.0.0"}`, "index.json": `{"schemaVersion":2,"manifests":[]}`})
	for _, tc := range []struct {
		arg  string
		want []string // references pulled
	}{
		{"quay.io/org/bundle:v1", []string{"quay.io/org/bundle:v1"}},
		{"oci:" + layout + ":v1", []string{"oci:" + layout + ":v1"}},
		{layout, []string{"oci:" + layout}},
		{"org/bundle", nil},
		{"crd.yaml", nil},
		{"./quay.io/x", nil},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			p := &recordingPuller{}
			if _, err := loadSide(t.Context(), tc.arg, p); err == nil {
				t.Fatal("want an error")
			}
			if diff := cmp.Diff(tc.want, p.refs); diff != "" {
				t.Errorf("pulled (-want +got):\n%s", diff)
			}
		})
	}
}
