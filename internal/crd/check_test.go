package crd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const service = `apiVersion: v1
kind: Service
metadata: {name: webhook-service}
spec:
  ports: [{port: 443}]
`

// TestCheckSides: a side without any CRD (an empty folder or file, a folder of other objects) stops the
// check with an error naming it, instead of passing with one crd-removed warning; otherwise the result
// counts the CRDs compared.
func TestCheckSides(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"old/crd.yaml":            v1beta1CRD,
		"other/crd.yaml":          strings.Replace(v1beta1CRD, "widgets.example.com", "gizmos.example.com", 1),
		"empty/.keep":             "",
		"emptyfile.yaml":          "",
		"notcrd/service.yaml":     service,
		"bundle/manifests/a.yaml": v1beta1CRD,
	})
	in := func(p string) string { return filepath.Join(dir, p) }
	tests := []struct {
		name     string
		req      Request
		wantErr  string // a substring of the error; "" for none
		wantSumm string
	}{
		{"same CRD", Request{Old: in("old"), New: in("bundle")}, "", "1 CRD compared (1 old, 1 new)"},
		{"disjoint CRDs", Request{Old: in("old"), New: in("other")}, "", "0 CRDs compared (1 old, 1 new)"},
		{"new side empty folder", Request{Old: in("old"), New: in("empty")}, in("empty") + " holds no CustomResourceDefinition: nothing to compare", ""},
		{"new side empty file", Request{Old: in("old"), New: in("emptyfile.yaml")}, in("emptyfile.yaml") + " holds no CustomResourceDefinition", ""},
		{"new side without CRDs", Request{Old: in("old"), New: in("notcrd")}, in("notcrd") + " holds no CustomResourceDefinition", ""},
		{"old side empty", Request{Old: in("empty"), New: in("old")}, in("empty") + " holds no CustomResourceDefinition", ""},
		{"both empty", Request{Old: in("empty"), New: in("empty")}, in("empty") + " holds no CustomResourceDefinition", ""},
		{"cluster dump without CRDs", Request{ClusterCRD: in("notcrd/service.yaml"), New: in("old")}, "--cluster-crd " + in("notcrd/service.yaml") + " holds no CustomResourceDefinition", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Check(context.Background(), tt.req)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && !strings.Contains(gotErr, tt.wantErr) {
				t.Fatalf("error = %q, want one containing %q", gotErr, tt.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.wantSumm, res.Summary()); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
		})
	}
}
