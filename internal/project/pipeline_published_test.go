package project

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/opack/opack/internal/fbc"
)

// TestReleasedDifference: a release regenerated under another image reference (a tag where the
// catalog has one), with another createdAt and builder, is the same release; any other change
// is named by its first difference.
func TestReleasedDifference(t *testing.T) {
	csv := func(createdAt, builder, replicas string) string {
		return `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"op.v1.0.0","annotations":{"createdAt":"` + createdAt +
			`","operators.operatorframework.io/builder":"` + builder + `"}},"spec":{"replicas":` + replicas + `}}`
	}
	bundle := func(image, objJSON string, pkgVersion string) fbc.Bundle {
		return fbc.Bundle{Name: "op.v1.0.0", Package: "op", Image: image, Objects: []string{objJSON},
			Properties: []fbc.Property{
				{Type: fbc.TypePackage, Value: []byte(`{"packageName":"op","version":"` + pkgVersion + `"}`)},
				{Type: fbc.TypeBundleObject, Value: []byte(`{"data":"` + base64.StdEncoding.EncodeToString([]byte(objJSON)) + `"}`)},
			},
			RelatedImages: []fbc.RelatedImage{{Name: "", Image: image}, {Name: "operator", Image: "quay.io/x/op:v1.0.0"}}}
	}
	published := bundle("quay.io/x/op-bundle:v1.0.0", csv("2024-01-01T00:00:00Z", "operator-sdk-v1.34.0", "1"), "1.0.0")
	tests := []struct {
		name  string
		built fbc.Bundle
		want  string // "" the same release; else a part of the difference
	}{
		{"same release, another reference and stamps", bundle("quay.io/x/op-bundle@sha256:0123", csv("2026-11-28T00:00:00Z", "opack-dev", "1"), "1.0.0"), ""},
		{"a changed CSV", bundle("quay.io/x/op-bundle@sha256:0123", csv("2024-01-01T00:00:00Z", "opack-dev", "2"), "1.0.0"), "ClusterServiceVersion op.v1.0.0: spec.replicas differs"},
		{"another version property", bundle("quay.io/x/op-bundle@sha256:0123", csv("2024-01-01T00:00:00Z", "opack-dev", "1"), "1.0.1"), "property olm.package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := releasedDifference(published, tt.built)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("releasedDifference = %q, want %q", got, tt.want)
			}
		})
	}
}
