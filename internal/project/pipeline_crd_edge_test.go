package project

import (
	"context"
	"strings"
	"testing"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCompareEdgeCRDs: on the build's catalog edges, a removed CRD is worded by the new CSV's
// rights, as catalog validate words it (trident-operator's removed CRDs, still created by its CSV).
func TestCompareEdgeCRDs(t *testing.T) {
	widgets := &apiextv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextv1.CustomResourceDefinitionSpec{Group: "example.com", Names: apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"},
			Scope: apiextv1.NamespaceScoped, Versions: []apiextv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object"}}}}}}
	csv := func(verbs string) string {
		return `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{"name":"op.v2.0.0"},` +
			`"spec":{"install":{"spec":{"clusterPermissions":[{"rules":[{"apiGroups":["example.com"],"resources":["widgets"],"verbs":[` + verbs + `]}]}]}}}}`
	}
	for _, tc := range []struct {
		name, csv, want string
	}{
		{name: "still created", csv: csv(`"create","get"`), want: "but its CSV op.v2.0.0 still has create rights on widgets.example.com"},
		{name: "no create rights", csv: csv(`"get"`), want: "its CSV holds no create rights on widgets.example.com"},
		{name: "no CSV", want: "no CSV of the new release was given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found := compareEdgeCRDs(context.Background(), []*apiextv1.CustomResourceDefinition{widgets}, nil, tc.csv)
			var msgs []string
			for _, f := range found {
				msgs = append(msgs, f.Message)
			}
			if len(found) != 1 || !strings.Contains(found[0].Message, tc.want) {
				t.Errorf("findings %q, want one saying %q", msgs, tc.want)
			}
		})
	}
}
