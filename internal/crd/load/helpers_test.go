package load

import apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

// testCRD builds a one-version CRD whose spec has the given schema (as internal/crd's tests do).
func testCRD(spec apiextv1.JSONSchemaProps) *apiextv1.CustomResourceDefinition {
	c := &apiextv1.CustomResourceDefinition{}
	c.Name = "widgets.example.com"
	c.Spec.Group, c.Spec.Scope = "example.com", apiextv1.NamespaceScoped
	c.Spec.Names = apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"}
	c.Spec.Versions = []apiextv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
		Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object",
			Properties: map[string]apiextv1.JSONSchemaProps{"spec": spec}}}}}
	return c
}
