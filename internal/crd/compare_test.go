package crd

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/crd/load"
)

func withVersions(vs ...apiextv1.CustomResourceDefinitionVersion) func(*apiextv1.CustomResourceDefinition) {
	return func(c *apiextv1.CustomResourceDefinition) { c.Spec.Versions = vs }
}

func crdVersion(name string, served, storage bool, spec apiextv1.JSONSchemaProps) apiextv1.CustomResourceDefinitionVersion {
	return apiextv1.CustomResourceDefinitionVersion{Name: name, Served: served, Storage: storage,
		Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object",
			Properties: map[string]apiextv1.JSONSchemaProps{"spec": spec}}}}
}

type ruleAt struct {
	Rule     Rule
	Severity string
	Version  string
	Path     string
}

func summarize(fs []Finding) []ruleAt {
	var out []ruleAt
	for _, f := range fs {
		out = append(out, ruleAt{f.Rule, f.Severity.String(), f.Version, f.Path})
	}
	return out
}

// crdPairCase is an old/new CRD pair with the findings opack gives under opts.
type crdPairCase struct {
	name     string
	old, new *apiextv1.CustomResourceDefinition
	opts     []Option
	want     []ruleAt
}

// crdPairCases are the CRD-wide cases of INLINE-CASES.md (scope, field removal with a new version,
// stored versions, served-version pairs and the webhook skip) and the deprecation steps. The real-server
// test (TestE2EAPIServerVerdicts) plays the whole pairs on an API server too.
func crdPairCases() []crdPairCase {
	mode := specWith("mode", schemaOf("string"))
	modeEnum := specWith("mode", schemaOf("string", func(p *apiextv1.JSONSchemaProps) { p.Enum = enum(`"a"`, `"b"`) }))
	modeEnumA := specWith("mode", schemaOf("string", func(p *apiextv1.JSONSchemaProps) { p.Enum = enum(`"a"`) }))
	empty := schemaOf("object")
	webhook := func(c *apiextv1.CustomResourceDefinition) {
		c.Spec.Conversion = &apiextv1.CustomResourceConversion{Strategy: apiextv1.WebhookConverter,
			Webhook: &apiextv1.WebhookConversion{ConversionReviewVersions: []string{"v1"},
				ClientConfig: &apiextv1.WebhookClientConfig{Service: &apiextv1.ServiceReference{Namespace: "ns", Name: "webhook"}}}}
	}
	return []crdPairCase{
		{name: "A1 B5 no scope change", old: testCRD(mode), new: testCRD(mode)},
		{name: "A2 B6 scope change", old: testCRD(mode),
			new:  testCRD(mode, func(c *apiextv1.CustomResourceDefinition) { c.Spec.Scope = apiextv1.ClusterScoped }),
			want: []ruleAt{{RuleScopeChanged, "error", "", "spec.scope"}}},
		{name: "kind change", old: testCRD(mode),
			new:  testCRD(mode, func(c *apiextv1.CustomResourceDefinition) { c.Spec.Names.Kind = "Gadget" }),
			want: []ruleAt{{RuleNameChanged, "error", "", "spec.names.kind"}}},
		{name: "A91 B11 existing field removed", old: testCRD(mode), new: testCRD(empty),
			want: []ruleAt{{RuleFieldRemoved, "error", "v1", "^.spec.mode"}}},
		{name: "A92 B12 new version added with the field removed", old: testCRD(mode),
			new:  testCRD(mode, withVersions(crdVersion("v1", true, true, mode), crdVersion("v2", true, false, empty))),
			want: []ruleAt{{RuleServedVersion, "error", "v1 -> v2", "^.spec.mode"}}},
		{name: "A92 with webhook conversion: no round-trip check", old: testCRD(mode),
			new: testCRD(mode, withVersions(crdVersion("v1", true, true, mode), crdVersion("v2", true, false, empty)), webhook)},
		{name: "A93 B7 no stored versions given: the storage version counts", old: testCRD(mode), new: testCRD(mode)},
		{name: "A94 B8 stored versions kept", old: testCRD(mode, withVersions(crdVersion("v1alpha1", true, false, mode), crdVersion("v1", true, true, mode))),
			new:  testCRD(mode, withVersions(crdVersion("v1alpha1", false, false, mode), crdVersion("v1", true, true, mode))),
			opts: []Option{WithStoredVersions("v1alpha1", "v1")},
			want: []ruleAt{{RuleVersionUnserved, "warn", "v1alpha1", "spec.versions[v1alpha1].served"}}},
		{name: "A95 B9 stored version removed", old: testCRD(mode, withVersions(crdVersion("v1alpha1", true, false, mode), crdVersion("v1", true, true, mode))),
			new:  testCRD(mode),
			opts: []Option{WithStoredVersions("v1alpha1", "v1")},
			want: []ruleAt{{RuleStoredVersionRemoved, "error", "v1alpha1", "spec.versions"}}},
		{name: "removing a served version that was never stored", old: testCRD(mode, withVersions(crdVersion("v1alpha1", true, false, mode), crdVersion("v1", true, true, mode))),
			new:  testCRD(mode),
			opts: []Option{WithStoredVersions("v1")},
			want: []ruleAt{{RuleVersionRemoved, "warn", "v1alpha1", "spec.versions"}}},
		{name: "removing an unserved version that was never stored", old: testCRD(mode, withVersions(crdVersion("v1alpha1", false, false, mode), crdVersion("v1", true, true, mode))),
			new: testCRD(mode), opts: []Option{WithStoredVersions("v1")}},
		{name: "storage moves to an existing version", old: testCRD(mode, withVersions(crdVersion("v1alpha1", true, true, mode), crdVersion("v1", true, false, mode))),
			new:  testCRD(mode, withVersions(crdVersion("v1alpha1", true, false, mode), crdVersion("v1", true, true, mode))),
			want: []ruleAt{{RuleStorageVersionChanged, "info", "", "spec.versions[*].storage"}}},
		{name: "storage moves to a version this release adds", old: testCRD(mode, withVersions(crdVersion("v1alpha1", true, true, mode))),
			new: testCRD(mode, withVersions(crdVersion("v1alpha1", true, false, mode), crdVersion("v1", true, true, mode))),
			want: []ruleAt{{RuleStorageVersionChanged, "info", "", "spec.versions[*].storage"},
				{RuleStorageVersionNew, "warn", "v1", "spec.versions[*].storage"}}},
		{name: "A100 P15 served pair: enum value removed between versions", old: testCRD(mode),
			new:  testCRD(mode, withVersions(crdVersion("v1", true, true, modeEnum), crdVersion("v2", true, false, modeEnumA))),
			want: []ruleAt{{RuleEnumAdded, "error", "v1", "^.spec.mode"}, {RuleServedVersion, "error", "v1 -> v2", "^.spec.mode"}}},
		{name: "A102 only served versions are paired", old: testCRD(modeEnum),
			new: testCRD(mode, withVersions(crdVersion("v1", true, true, modeEnum), crdVersion("v2", false, false, modeEnumA)))},
		{name: "pre-existing served-version issue is not reported again",
			old: testCRD(mode, withVersions(crdVersion("v1", true, true, modeEnum), crdVersion("v2", true, false, modeEnumA))),
			new: testCRD(mode, withVersions(crdVersion("v1", true, true, modeEnum), crdVersion("v2", true, false, modeEnumA)))},
		{name: "policy turns a rule off and another to error", old: testCRD(modeEnumA), new: testCRD(modeEnum),
			opts: []Option{WithPolicy(Policy{RuleEnumValueAdded: SeverityError})},
			want: []ruleAt{{RuleEnumValueAdded, "error", "v1", "^.spec.mode"}}},
		{name: "crd removed", old: testCRD(mode), new: nil,
			want: []ruleAt{{RuleCRDRemoved, "warn", "", ""}}},
	}
}

func TestCompareCRDCases(t *testing.T) {
	for _, tt := range crdPairCases() {
		t.Run(tt.name, func(t *testing.T) {
			var news []*apiextv1.CustomResourceDefinition
			if tt.new != nil {
				news = append(news, tt.new)
			}
			got := summarize(Compare([]*apiextv1.CustomResourceDefinition{tt.old}, news, tt.opts...))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompareIdenticalPasses(t *testing.T) {
	c := testCRD(specWith("mode", schemaOf("string", func(p *apiextv1.JSONSchemaProps) { p.Enum = enum(`"a"`) })),
		withVersions(crdVersion("v1", true, true, specWith("x", schemaOf("string"))), crdVersion("v2", true, false, schemaOf("object"))))
	if got := Compare([]*apiextv1.CustomResourceDefinition{c}, []*apiextv1.CustomResourceDefinition{c.DeepCopy()}); len(got) != 0 {
		t.Errorf("identical CRDs gave findings: %v", got)
	}
}

func TestCSVVersionNotServed(t *testing.T) {
	spec := specWith("mode", schemaOf("string"))
	old := testCRD(spec, withVersions(crdVersion("v1alpha1", true, false, spec), crdVersion("v1", true, true, spec)))
	new := testCRD(spec, withVersions(crdVersion("v1alpha1", false, false, spec), crdVersion("v1", true, true, spec)))
	refs := []load.VersionRef{{CRD: old.Name, Version: "v1alpha1", CSV: "widget.v2.0.0", Owned: true}}
	got := summarize(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{new}, WithCSVRefs(refs, refs)))
	want := []ruleAt{{RuleCSVVersionNotServed, "error", "v1alpha1", "spec.versions"}, {RuleVersionUnserved, "warn", "v1alpha1", "spec.versions[v1alpha1].served"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestInstancesOpenAPIAndCEL(t *testing.T) {
	replicas := func(max float64, rules ...string) apiextv1.JSONSchemaProps {
		return specWith("replicas", schemaOf("integer", func(p *apiextv1.JSONSchemaProps) {
			p.Maximum = ptrF(max)
			for _, r := range rules {
				p.XValidations = append(p.XValidations, apiextv1.ValidationRule{Rule: r})
			}
		}))
	}
	obj := func(n int64) load.Instance {
		return load.Instance{File: "cr.yaml", Object: &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]interface{}{"name": "w", "namespace": "ns"},
			"spec": map[string]interface{}{"replicas": n}}}}
	}
	tests := []struct {
		name     string
		old, new apiextv1.JSONSchemaProps
		objs     []load.Instance
		want     []ruleAt
	}{
		{"valid objects turn the tightening into a warning", replicas(10), replicas(9), []load.Instance{obj(9)},
			[]ruleAt{{RuleMaxTightened, "warn", "v1", "^.spec.replicas"}}},
		{"an object over the new maximum", replicas(10), replicas(9), []load.Instance{obj(10)},
			[]ruleAt{{RuleMaxTightened, "warn", "v1", "^.spec.replicas"}, {RuleInstanceInvalid, "error", "v1", "spec.replicas"}}},
		{"an object violating a new CEL rule", replicas(10), replicas(10, "self % 2 == 0"), []load.Instance{obj(3)},
			[]ruleAt{{RuleCELAdded, "warn", "v1", "^.spec.replicas"}, {RuleInstanceCELInvalid, "error", "v1", "spec.replicas"}}},
		{"no objects: nothing exists to break", replicas(10), replicas(9), nil,
			[]ruleAt{{RuleMaxTightened, "warn", "v1", "^.spec.replicas"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summarize(Compare([]*apiextv1.CustomResourceDefinition{testCRD(tt.old)}, []*apiextv1.CustomResourceDefinition{testCRD(tt.new)},
				WithInstances(tt.objs), WithContext(context.Background())))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy([]byte("rules:\n  enum-value-added: off\n  pattern-removed: error\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Policy{RuleEnumValueAdded: SeverityOff, RulePatternRemoved: SeverityError}, p); diff != "" {
		t.Errorf("policy (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"rules:\n  nope: off\n", "rules:\n  enum-added: fatal\n", "rule: {}\n"} {
		if _, err := ParsePolicy([]byte(bad)); err == nil {
			t.Errorf("ParsePolicy(%q) succeeded, want an error", bad)
		}
	}
}
