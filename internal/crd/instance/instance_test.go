package instance

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/crd/load"
)

// widgets is a CRD of kind Widget whose versions have spec.replicas with the given maximum and CEL
// rules, and the versions given (a name starting with "-" is not served; the last is the storage
// version); webhook makes it convert through a webhook.
func widgets(max float64, rules []string, webhook bool, versions ...string) *apiextv1.CustomResourceDefinition {
	c := &apiextv1.CustomResourceDefinition{}
	c.Name = "widgets.example.com"
	c.Spec.Group, c.Spec.Names = "example.com", apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"}
	replicas := apiextv1.JSONSchemaProps{Type: "integer", Maximum: &max}
	for _, r := range rules {
		replicas.XValidations = append(replicas.XValidations, apiextv1.ValidationRule{Rule: r})
	}
	schema := &apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"replicas": replicas}}}}
	for i, v := range versions {
		served := v[0] != '-'
		if !served {
			v = v[1:]
		}
		c.Spec.Versions = append(c.Spec.Versions, apiextv1.CustomResourceDefinitionVersion{Name: v, Served: served, Storage: i == len(versions)-1,
			Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: schema}})
	}
	if webhook {
		c.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter}
	}
	return c
}

func widget(version string, replicas int64) load.Instance {
	return load.Instance{File: "cr.yaml", Object: &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/" + version, "kind": "Widget", "metadata": map[string]any{"name": "w", "namespace": "ns"},
		"spec": map[string]any{"replicas": replicas}}}}
}

// TestCheck: an object is validated (OpenAPI, then CEL) against the new schema of each version served
// before and after; read through a conversion webhook, its problems are Converted; an object whose own
// version stops being served, or is removed, is named.
func TestCheck(t *testing.T) {
	type got struct {
		Kind      Kind
		Version   string
		Path      string
		Converted bool
	}
	for _, tc := range []struct {
		name     string
		old, new *apiextv1.CustomResourceDefinition
		obj      load.Instance
		want     []got
	}{
		{"valid", widgets(10, nil, false, "v1"), widgets(9, nil, false, "v1"), widget("v1", 9), nil},
		{"over the new maximum", widgets(10, nil, false, "v1"), widgets(9, nil, false, "v1"), widget("v1", 10),
			[]got{{Invalid, "v1", "spec.replicas", false}}},
		{"violates a new CEL rule", widgets(10, nil, false, "v1"), widgets(10, []string{"self % 2 == 0"}, false, "v1"), widget("v1", 3),
			[]got{{CELInvalid, "v1", "spec.replicas", false}}},
		{"read at every version served before and after", widgets(10, nil, false, "v1", "v2"), widgets(9, nil, false, "v1", "v2"), widget("v1", 10),
			[]got{{Invalid, "v1", "spec.replicas", false}, {Invalid, "v2", "spec.replicas", false}}},
		{"read through a conversion webhook", widgets(10, nil, true, "v1", "v2"), widgets(9, nil, true, "v1", "v2"), widget("v1", 10),
			[]got{{Invalid, "v1", "spec.replicas", false}, {Invalid, "v2", "spec.replicas", true}}},
		{"its version no longer served", widgets(10, nil, false, "v1", "v2"), widgets(10, nil, false, "-v1", "v2"), widget("v1", 1),
			[]got{{Unserved, "v1", "spec.versions", false}}},
		{"its version removed", widgets(10, nil, false, "v1", "v2"), widgets(10, nil, false, "v2"), widget("v1", 1),
			[]got{{Removed, "v1", "spec.versions", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var gots []got
			for _, p := range Check(context.Background(), tc.old, tc.new, []load.Instance{tc.obj}) {
				gots = append(gots, got{p.Kind, p.Version, p.Path, p.Converted})
				if p.File != "cr.yaml" || p.Message == "" {
					t.Errorf("problem %+v: want the object's file and a message", p)
				}
			}
			if diff := cmp.Diff(tc.want, gots); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
