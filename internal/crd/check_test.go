package crd

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

const service = `apiVersion: v1
kind: Service
metadata: {name: webhook-service}
spec:
  ports: [{port: 443}]
`

// TestCheckSides: a new side without any CRD (an empty folder or file, a folder of other objects) stops
// the check with an error naming it, instead of passing with one crd-removed warning; an old side without
// CRDs is an operator adding its first CRDs (or having none): the new ones are additions (info). The result
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
		{"new side empty folder", Request{Old: in("old"), New: in("empty")}, in("empty") + " holds no CustomResourceDefinition, so every CRD would be removed", ""},
		{"new side empty file", Request{Old: in("old"), New: in("emptyfile.yaml")}, in("emptyfile.yaml") + " holds no CustomResourceDefinition", ""},
		{"new side without CRDs", Request{Old: in("old"), New: in("notcrd")}, in("notcrd") + " holds no CustomResourceDefinition", ""},
		{"old side empty", Request{Old: in("empty"), New: in("old")}, "", "0 CRDs compared (0 old, 1 new)"},
		{"old side without CRDs", Request{Old: in("notcrd"), New: in("bundle")}, "", "0 CRDs compared (0 old, 1 new)"},
		{"both empty", Request{Old: in("empty"), New: in("empty")}, "", "0 CRDs compared (0 old, 0 new)"},
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
			for _, f := range res.Findings {
				if res.Old == 0 && (f.Rule != RuleCRDAdded || f.Severity != SeverityInfo) {
					t.Errorf("old side without CRDs: want only crd-added info findings, got %s %s", f.Severity, f)
				}
			}
		})
	}
}

// TestPreExisting: a problem the old release already has and the new one keeps is reported as
// pre-existing, a warning; the same problem new in the release is an error.
func TestPreExisting(t *testing.T) {
	spec := specWith("size", schemaOf("integer"))
	twoVersions := func(servedV1 bool) *apiextv1.CustomResourceDefinition {
		return testCRD(spec, withVersions(crdVersion("v1", servedV1, true, spec), crdVersion("v2", true, false, spec)))
	}
	refs := []load.VersionRef{{CRD: "widgets.example.com", Version: "v1", CSV: "widget-operator.v1", Owned: true}}
	for _, tc := range []struct {
		name string
		old  *apiextv1.CustomResourceDefinition
		want []string
	}{
		{"already in the old release", twoVersions(false), []string{
			"csv-version-not-served warn pre-existing (the old release has the same problem): ClusterServiceVersion widget-operator.v1 owns version v1, which the CRD does not serve; OLM fails the CSV (CRD version not served)",
			"storage-version-unserved warn pre-existing (the old release has the same problem): the storage version is not served",
		}},
		{"new in this release", twoVersions(true), []string{
			"csv-version-not-served error ClusterServiceVersion widget-operator.v1 owns version v1, which the CRD does not serve; OLM fails the CSV (CRD version not served)",
			"storage-version-unserved warn the storage version is not served",
			"version-unserved warn version no longer served; its API endpoints disappear: existing objects created as v1 become unreadable at v1 (the API server answers 404) until clients read them at a served version",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Compare([]*apiextv1.CustomResourceDefinition{tc.old}, []*apiextv1.CustomResourceDefinition{twoVersions(false)},
				WithCSVRefs(refs, refs), WithAPIServerValidation(false))
			var got []string
			for _, f := range fs {
				got = append(got, string(f.Rule)+" "+f.Severity.String()+" "+f.Message)
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
