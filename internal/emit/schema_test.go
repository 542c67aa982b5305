package emit

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func object(t *testing.T, y string) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

func TestSchemasCoverEmittedKinds(t *testing.T) {
	s, err := OLMSchemas()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, gvk := range s.Kinds() {
		got = append(got, gvk.GroupVersion().String()+" "+gvk.Kind)
	}
	want := "config.openshift.io/v1 ClusterImagePolicy, olm.operatorframework.io/v1 ClusterCatalog, olm.operatorframework.io/v1 ClusterExtension, operators.coreos.com/v1 OperatorGroup, operators.coreos.com/v1alpha1 CatalogSource, operators.coreos.com/v1alpha1 Subscription, operators.coreos.com/v1alpha2 OperatorGroup, policy.sigstore.dev/v1alpha1 ClusterImagePolicy, policy.sigstore.dev/v1beta1 ClusterImagePolicy"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("kinds:\n got %s\nwant %s", g, want)
	}
}

func TestSchemasValidate(t *testing.T) {
	const sub = "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\n"
	const cc = "apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c}\n"
	const ce = "apiVersion: olm.operatorframework.io/v1\nkind: ClusterExtension\nmetadata: {name: e}\n"
	const digest = "quay.io/a/b@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name string
		obj  string
		want []string // substrings of the errors; none means valid
	}{
		{"valid subscription", sub + "spec: {name: p, source: c, sourceNamespace: olm, channel: alpha}", nil},
		{"subscription without package", sub + "spec: {source: c, sourceNamespace: olm}", []string{"spec.name: Required value"}},
		{"unknown field", sub + "spec: {name: p, source: c, sourceNamespace: olm, chanel: alpha}", []string{"spec.chanel: Forbidden: unknown field"}},
		{"wrong type", sub + "spec: {name: p, source: c, sourceNamespace: olm, channel: [alpha]}", []string{"spec.channel: Invalid value: \"array\""}},
		{"no namespace on a namespaced kind", "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata: {name: g}\n", []string{"metadata.namespace: Required value"}},
		{"namespace on a cluster kind", "apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c, namespace: x}\nspec: {source: {type: Image, image: {ref: 'quay.io/a/b:1'}}}", []string{"metadata.namespace: Forbidden"}},
		{"bad name", "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata: {name: Bad_Name, namespace: ns}\n", []string{"metadata.name: Invalid value: \"Bad_Name\""}},
		{"valid catalog by tag", cc + "spec: {source: {type: Image, image: {ref: 'quay.io/a/b:1', pollIntervalMinutes: 5}}}", nil},
		{"poll with digest (CEL)", cc + "spec: {source: {type: Image, image: {ref: '" + digest + "', pollIntervalMinutes: 5}}}", []string{"spec.source.image: Invalid value", "cannot specify pollIntervalMinutes while using digest-based image"}},
		{"poll below minimum", cc + "spec: {source: {type: Image, image: {ref: 'quay.io/a/b:1', pollIntervalMinutes: 0}}}", []string{"spec.source.image.pollIntervalMinutes: Invalid value: 0"}},
		{"catalog without image (CEL)", cc + "spec: {source: {type: Image}}", []string{"spec.source: Invalid value", "image is required when source type is Image"}},
		{"extension missing namespace", ce + "spec: {source: {sourceType: Catalog, catalog: {packageName: p}}}", []string{"spec.namespace: Required value"}},
		{"extension bad package name (CEL)", ce + "spec: {namespace: ns, source: {sourceType: Catalog, catalog: {packageName: Not_A_Name}}}", []string{"spec.source.catalog.packageName", "packageName must be a valid DNS1123 subdomain"}},
		{"extension bad version (CEL)", ce + "spec: {namespace: ns, source: {sourceType: Catalog, catalog: {packageName: p, version: '>>1'}}}", []string{"spec.source.catalog.version", "invalid version expression"}},
		{"extension valid", ce + "spec: {namespace: ns, source: {sourceType: Catalog, catalog: {packageName: p, version: '>=1.0.0, <2.0.0', channels: [stable]}}}", nil},
		{"unknown kind", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", []string{"kind: Unsupported value"}},
	}
	s, err := OLMSchemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := s.Validate(context.Background(), object(t, tt.obj))
			got := FormatErrors(errs)
			if len(tt.want) == 0 && len(errs) > 0 {
				t.Fatalf("unexpected errors: %s", got)
			}
			if len(tt.want) > 0 && len(errs) == 0 {
				t.Fatalf("no errors, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("errors %q do not contain %q", got, w)
				}
			}
		})
	}
}

func TestSchemasValidateDoesNotModify(t *testing.T) {
	s, err := OLMSchemas()
	if err != nil {
		t.Fatal(err)
	}
	obj := object(t, "apiVersion: olm.operatorframework.io/v1\nkind: ClusterCatalog\nmetadata: {name: c}\nspec: {source: {type: Image, image: {ref: 'quay.io/a/b:1'}}}")
	before := obj.DeepCopy()
	if errs := s.Validate(context.Background(), obj); len(errs) > 0 {
		t.Fatal(FormatErrors(errs))
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(obj.Object, "spec", "availabilityMode"); found || !equalJSON(before.Object, obj.Object) {
		t.Errorf("Validate changed its argument (defaults must be applied to a copy): %v", obj.Object)
	}
}

func equalJSON(a, b map[string]any) bool {
	ja, _ := yaml.Marshal(a)
	jb, _ := yaml.Marshal(b)
	return string(ja) == string(jb)
}
