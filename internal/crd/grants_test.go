package crd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// TestCRDRemovedWording: crd-removed says what the new release's CSV says about the CRD.
func TestCRDRemovedWording(t *testing.T) {
	csv := func(field, rules string) []byte {
		return []byte(`{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"op.v2"},` +
			`"spec":{"install":{"strategy":"deployment","spec":{"` + field + `":[{"serviceAccountName":"op","rules":` + rules + `}]}}}}`)
	}
	tests := []struct {
		name string
		csv  []byte // nil: no CSV known
		want string
	}{
		{name: "clusterPermissions still create the resource",
			csv:  csv("clusterPermissions", `[{"apiGroups":[""],"resources":["configmaps"],"verbs":["*"]},{"apiGroups":["example.com"],"resources":["widgets","widgets/status"],"verbs":["get","list","create","update"]}]`),
			want: "CRD removed from the new release, but its CSV op.v2 still has create rights on widgets.example.com (clusterPermissions: verbs get,list,create,update): the operator may still create and manage its objects, but no release installs or updates the CRD any more (OLM leaves the old CRD on upgraded clusters; on new installs it does not exist); keep shipping the CRD or drop those rights"},
		{name: "namespaced permissions with wildcards",
			csv:  csv("permissions", `[{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}]`),
			want: "CRD removed from the new release, but its CSV op.v2 still has create rights on widgets.example.com (permissions: verbs *): the operator may still create and manage its objects, but no release installs or updates the CRD any more (OLM leaves the old CRD on upgraded clusters; on new installs it does not exist); keep shipping the CRD or drop those rights"},
		{name: "read-only rights",
			csv:  csv("clusterPermissions", `[{"apiGroups":["example.com"],"resources":["widgets"],"verbs":["get","list","watch","delete"]}]`),
			want: "CRD removed from the new release, and its CSV holds no create rights on widgets.example.com: existing objects stay on the cluster unmanaged"},
		{name: "rights on another group's resource of the same name",
			csv:  csv("clusterPermissions", `[{"apiGroups":["other.io"],"resources":["widgets"],"verbs":["create"]}]`),
			want: "CRD removed from the new release, and its CSV holds no create rights on widgets.example.com: existing objects stay on the cluster unmanaged"},
		{name: "no CSV known",
			want: "CRD removed from the new release; its objects stay on the cluster, and no CSV of the new release was given to say whether the operator still manages them"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []Option
			if tt.csv != nil {
				grants, ok := load.CSVGrants(tt.csv)
				if !ok {
					t.Fatal("CSV does not decode")
				}
				opts = append(opts, WithNewGrants(grants))
			}
			old := testCRD(specWith("mode", schemaOf("string")))
			fs := Compare([]*apiextv1.CustomResourceDefinition{old}, nil, opts...)
			if len(fs) != 1 || fs[0].Rule != RuleCRDRemoved {
				t.Fatalf("want one crd-removed finding, got %v", fs)
			}
			if diff := cmp.Diff(tt.want, fs[0].Message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}
