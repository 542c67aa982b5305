package crd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func ptrF(f float64) *float64 { return &f }
func ptrI(i int64) *int64     { return &i }
func ptrB(b bool) *bool       { return &b }

func raw(s string) *apiextv1.JSON { return &apiextv1.JSON{Raw: []byte(s)} }

func enum(vals ...string) []apiextv1.JSON {
	out := make([]apiextv1.JSON, len(vals))
	for i, v := range vals {
		out[i] = apiextv1.JSON{Raw: []byte(v)}
	}
	return out
}

// field returns a schema of the given type changed by the mutators.
func schemaOf(typ string, mut ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps {
	s := apiextv1.JSONSchemaProps{Type: typ}
	for _, m := range mut {
		m(&s)
	}
	return s
}

// testCRD builds a one-version CRD whose spec has the given properties.
func testCRD(spec apiextv1.JSONSchemaProps, mut ...func(*apiextv1.CustomResourceDefinition)) *apiextv1.CustomResourceDefinition {
	c := &apiextv1.CustomResourceDefinition{}
	c.Name = "widgets.example.com"
	c.Spec.Group, c.Spec.Scope = "example.com", apiextv1.NamespaceScoped
	c.Spec.Names = apiextv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"}
	c.Spec.Versions = []apiextv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
		Schema: &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{Type: "object",
			Properties: map[string]apiextv1.JSONSchemaProps{"spec": spec}}}}}
	for _, m := range mut {
		m(c)
	}
	return c
}

func specWith(name string, s apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
	return schemaOf("object", func(p *apiextv1.JSONSchemaProps) { p.Properties = map[string]apiextv1.JSONSchemaProps{name: s} })
}

// rulesAtError returns the rules of the error findings.
func rulesAtError(fs []Finding) []Rule {
	var out []Rule
	for _, f := range fs {
		if f.Severity == SeverityError {
			out = append(out, f.Rule)
		}
	}
	return out
}

// TestSchemaInlineCases reproduces the schema-level cases of testdata/crd-upgrade/INLINE-CASES.md
// (crdify unit tests A, kapp unit tests B, pre-crdify OLM v1 checks C) under opack's policy. Where
// opack's verdict differs from the upstream default (description, enum value added, nullable added,
// pattern removed, oneOf alternative added: all loosenings), the case says so.
func TestSchemaInlineCases(t *testing.T) {
	integer := func(m ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps { return schemaOf("integer", m...) }
	str := func(m ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps { return schemaOf("string", m...) }
	arr := func(m ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps {
		return schemaOf("array", append([]func(*apiextv1.JSONSchemaProps){func(p *apiextv1.JSONSchemaProps) {
			p.Items = &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}
		}}, m...)...)
	}
	obj := func(m ...func(*apiextv1.JSONSchemaProps)) apiextv1.JSONSchemaProps {
		return schemaOf("object", append([]func(*apiextv1.JSONSchemaProps){func(p *apiextv1.JSONSchemaProps) {
			p.Properties = map[string]apiextv1.JSONSchemaProps{"a": {Type: "string"}, "b": {Type: "string"}}
		}}, m...)...)
	}
	desc := func(d string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Description = d }
	}
	def := func(v string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Default = raw(v) }
	}
	enums := func(v ...string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Enum = enum(v...) }
	}
	maximum := func(f float64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Maximum = ptrF(f) }
	}
	minimum := func(f float64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Minimum = ptrF(f) }
	}
	maxItems := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MaxItems = ptrI(i) }
	}
	minItems := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MinItems = ptrI(i) }
	}
	maxLength := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MaxLength = ptrI(i) }
	}
	minLength := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MinLength = ptrI(i) }
	}
	maxProps := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MaxProperties = ptrI(i) }
	}
	minProps := func(i int64) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.MinProperties = ptrI(i) }
	}
	nullable := func(p *apiextv1.JSONSchemaProps) { p.Nullable = true }
	pattern := func(s string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Pattern = s }
	}
	required := func(r ...string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Required = r }
	}
	oneOf := func(reqs ...[]string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) {
			for _, r := range reqs {
				p.OneOf = append(p.OneOf, apiextv1.JSONSchemaProps{Required: r})
			}
		}
	}

	tests := []struct {
		ids      string
		old, new apiextv1.JSONSchemaProps
		want     []Rule // rules of the error findings; none = the upgrade passes
	}{
		{"A3 B80 C49 default: no diff", str(def(`"a"`)), str(def(`"a"`)), nil},
		{"A4 B81 C50 default added", str(), str(def(`"a"`)), []Rule{RuleDefaultAdded}},
		{"A5 B82 C51 default removed", str(def(`"a"`)), str(), []Rule{RuleDefaultRemoved}},
		{"A6 B83 C52 default changed", str(def(`"a"`)), str(def(`"b"`)), []Rule{RuleDefaultChanged}},
		{"A7 B84 C53 different field changed", str(def(`"a"`)), str(def(`"a"`), desc("x")), nil},
		{"A9 C58 description changed (crdify default flags; OLM and opack pass)", str(desc("a")), str(desc("b")), nil},
		{"C59 description added", str(), str(desc("b")), nil},
		{"C60 description removed", str(desc("a")), str(), nil},
		{"A11 B13 C1 enum: no diff", str(enums(`"a"`)), str(enums(`"a"`)), nil},
		{"A12 B15 C2 enum constraint added", str(), str(enums(`"a"`)), []Rule{RuleEnumAdded}},
		{"A13-A15 B14 enum value added (a loosening; crdify default flags)", str(enums(`"a"`)), str(enums(`"a"`, `"b"`)), nil},
		{"A16 B16 C3 enum value removed", str(enums(`"a"`, `"b"`)), str(enums(`"a"`)), []Rule{RuleEnumValueRemoved}},
		{"A17 B17 C4 different field changed", str(enums(`"a"`)), str(enums(`"a"`), desc("x")), nil},
		{"schema-checker update-changes-enum-order", str(enums(`"a"`, `"b"`)), str(enums(`"b"`, `"a"`)), nil},
		{"A19 B56 C9 maximum: no diff", integer(maximum(10)), integer(maximum(10)), nil},
		{"A20 B59 C10 maximum added", integer(), integer(maximum(10)), []Rule{RuleMaxTightened}},
		{"A21 B58 C11 maximum decreased", integer(maximum(20)), integer(maximum(10)), []Rule{RuleMaxTightened}},
		{"A22 B57 C12 maximum increased", integer(maximum(10)), integer(maximum(20)), nil},
		{"B60 maximum removed", integer(maximum(10)), integer(), nil},
		{"A25 B71 C15 maxItems added", arr(), arr(maxItems(10)), []Rule{RuleMaxTightened}},
		{"A26 B70 C16 maxItems decreased", arr(maxItems(20)), arr(maxItems(10)), []Rule{RuleMaxTightened}},
		{"A27 B69 C17 maxItems increased", arr(maxItems(10)), arr(maxItems(20)), nil},
		{"B72 maxItems removed", arr(maxItems(10)), arr(), nil},
		{"A30 B65 C20 maxLength added", str(), str(maxLength(10)), []Rule{RuleMaxTightened}},
		{"A31 B64 C21 maxLength decreased", str(maxLength(20)), str(maxLength(10)), []Rule{RuleMaxTightened}},
		{"A32 B63 C22 maxLength increased", str(maxLength(10)), str(maxLength(20)), nil},
		{"B66 maxLength removed", str(maxLength(10)), str(), nil},
		{"A35 B77 C25 maxProperties added", obj(), obj(maxProps(10)), []Rule{RuleMaxTightened}},
		{"A36 B76 C26 maxProperties decreased", obj(maxProps(20)), obj(maxProps(10)), []Rule{RuleMaxTightened}},
		{"A37 B75 C27 maxProperties increased", obj(maxProps(10)), obj(maxProps(20)), nil},
		{"B78 maxProperties removed", obj(maxProps(10)), obj(), nil},
		{"A40 B35 C35 minimum added", integer(), integer(minimum(10)), []Rule{RuleMinTightened}},
		{"A41 B33 C36 minimum decreased", integer(minimum(20)), integer(minimum(10)), nil},
		{"A42 B34 C37 minimum increased", integer(minimum(10)), integer(minimum(20)), []Rule{RuleMinTightened}},
		{"B36 minimum removed", integer(minimum(10)), integer(), nil},
		{"A45 B47 C30 minItems added", arr(), arr(minItems(10)), []Rule{RuleMinTightened}},
		{"A46 B45 C31 minItems decreased", arr(minItems(20)), arr(minItems(10)), nil},
		{"A47 B46 C32 minItems increased", arr(minItems(10)), arr(minItems(20)), []Rule{RuleMinTightened}},
		{"A50 B41 C40 minLength added", str(), str(minLength(10)), []Rule{RuleMinTightened}},
		{"A51 B39 C41 minLength decreased", str(minLength(20)), str(minLength(10)), nil},
		{"A52 B40 C42 minLength increased", str(minLength(10)), str(minLength(20)), []Rule{RuleMinTightened}},
		{"B42 minLength removed", str(minLength(10)), str(), nil},
		{"A55 B53 C45 minProperties added", obj(), obj(minProps(10)), []Rule{RuleMinTightened}},
		{"A56 B51 C46 minProperties decreased", obj(minProps(20)), obj(minProps(10)), nil},
		{"A57 B52 C47 minProperties increased", obj(minProps(10)), obj(minProps(20)), []Rule{RuleMinTightened}},
		{"A59 nullable: no diff", str(nullable), str(nullable), nil},
		{"A60 A61 nullable added (a loosening; crdify default flags)", str(), str(nullable), nil},
		{"A62 nullable removed", str(nullable), str(), []Rule{RuleNullableRemoved}},
		{"A65 oneOf: no diff", obj(oneOf([]string{"a"}, []string{"b"})), obj(oneOf([]string{"a"}, []string{"b"})), nil},
		{"A66 oneOf: different order", obj(oneOf([]string{"a"}, []string{"b"})), obj(oneOf([]string{"b"}, []string{"a"})), nil},
		{"A67 A68 A69 oneOf constraint added", obj(), obj(oneOf([]string{"a"}, []string{"b"})), []Rule{RuleOneOfAdded}},
		{"A70 A71 oneOf alternative removed", obj(oneOf([]string{"a"}, []string{"b"})), obj(oneOf([]string{"a"})), []Rule{RuleOneOfRemoved}},
		{"A73-A75 oneOf alternative added (a loosening; crdify default flags)", obj(oneOf([]string{"a"})), obj(oneOf([]string{"a"}, []string{"b"})), nil},
		{"A76 oneOf: different field changed", obj(oneOf([]string{"a"})), obj(oneOf([]string{"a"}), desc("x")), nil},
		{"A78 pattern: no diff", str(pattern("^a$")), str(pattern("^a$")), nil},
		{"A79 pattern added", str(), str(pattern("^a$")), []Rule{RulePatternAdded}},
		{"A80 pattern changed", str(pattern("^a$")), str(pattern("^b$")), []Rule{RulePatternChanged}},
		{"A81 A82 pattern removed (a loosening; crdify default flags)", str(pattern("^a$")), str(), nil},
		{"A84 B27 C6 required: no diff", obj(required("a")), obj(required("a")), nil},
		{"A85 B29 C7 required field added", obj(required("a")), obj(required("a", "b")), []Rule{RuleRequiredAdded}},
		{"B31 required added when none existed", obj(), obj(required("a")), []Rule{RuleRequiredAdded}},
		{"B28 required field removed", obj(required("a", "b")), obj(required("a")), nil},
		{"A87 C54 type: no diff", str(), str(), nil},
		{"A88 C55 type changed", str(), integer(), []Rule{RuleTypeChanged}},
		{"A89 C56 type: different field changed", str(), str(desc("x")), nil},
		{"integer widened to number", integer(), schemaOf("number"), nil},
		{"format added (email)", str(), str(func(p *apiextv1.JSONSchemaProps) { p.Format = "email" }), []Rule{RuleFormatChanged}},
		{"format removed", str(func(p *apiextv1.JSONSchemaProps) { p.Format = "email" }), str(), nil},
		{"documentation-only format changed", integer(func(p *apiextv1.JSONSchemaProps) { p.Format = "int32" }), integer(func(p *apiextv1.JSONSchemaProps) { p.Format = "int64" }), nil},
	}
	for _, tt := range tests {
		t.Run(tt.ids, func(t *testing.T) {
			old, new := testCRD(specWith("f", tt.old)), testCRD(specWith("f", tt.new))
			got := rulesAtError(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{new}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSchemaKeywordClassification covers the keywords upstream checkers leave "unhandled": each
// classified as tightening (error), loosening or neutral.
func TestSchemaKeywordClassification(t *testing.T) {
	cel := func(rules ...string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) {
			for _, r := range rules {
				p.XValidations = append(p.XValidations, apiextv1.ValidationRule{Rule: r, Message: "m"})
			}
		}
	}
	celMsg := func(p *apiextv1.JSONSchemaProps) { p.XValidations[0].Message = "other message" }
	preserve := func(p *apiextv1.JSONSchemaProps) { p.XPreserveUnknownFields = ptrB(true) }
	mapOf := func(v apiextv1.JSONSchemaProps) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) {
			p.AdditionalProperties = &apiextv1.JSONSchemaPropsOrBool{Allows: true, Schema: &v}
		}
	}
	listType := func(lt string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) {
			p.XListType = &lt
			p.Items = &apiextv1.JSONSchemaPropsOrArray{Schema: &apiextv1.JSONSchemaProps{Type: "string"}}
		}
	}
	intOrString := func(p *apiextv1.JSONSchemaProps) { p.Type, p.XIntOrString = "", true }
	tests := []struct {
		name     string
		old, new apiextv1.JSONSchemaProps
		want     []Rule // all findings, any severity
	}{
		{"CEL rule added", schemaOf("string"), schemaOf("string", cel("self != ''")), []Rule{RuleCELAdded}},
		{"CEL rule removed", schemaOf("string", cel("self != ''")), schemaOf("string"), []Rule{RuleCELRemoved}},
		{"CEL rule changed", schemaOf("string", cel("self != ''")), schemaOf("string", cel("self.size() > 1")), []Rule{RuleCELChanged}},
		{"CEL message-only change", schemaOf("string", cel("self != ''")), schemaOf("string", cel("self != ''"), celMsg), nil},
		{"preserve-unknown-fields removed", schemaOf("object", preserve), schemaOf("object"), []Rule{RulePreserveUnknownFields}},
		{"preserve-unknown-fields added", schemaOf("object"), schemaOf("object", preserve), nil},
		{"field removed under a preserving parent is kept", schemaOf("object", func(p *apiextv1.JSONSchemaProps) {
			p.Properties = map[string]apiextv1.JSONSchemaProps{"a": {Type: "string"}}
		}), schemaOf("object", preserve), nil},
		{"map value tightened", schemaOf("object", mapOf(schemaOf("string"))), schemaOf("object", mapOf(schemaOf("string", func(p *apiextv1.JSONSchemaProps) { p.MaxLength = ptrI(3) }))), []Rule{RuleMaxTightened}},
		{"map turned into a struct", schemaOf("object", mapOf(schemaOf("string"))), schemaOf("object"), []Rule{RuleAdditionalProperties}},
		{"list-type atomic to set", schemaOf("array", listType("atomic")), schemaOf("array", listType("set")), []Rule{RuleListTypeChanged}},
		{"list-type unset equals atomic", schemaOf("array", listType("")), schemaOf("array", listType("atomic")), nil},
		{"int-or-string narrowed to string", schemaOf("", intOrString), schemaOf("string"), []Rule{RuleTypeChanged}},
		{"string widened to int-or-string", schemaOf("string"), schemaOf("", intOrString), nil},
		{"anyOf constraint added", schemaOf("object"), schemaOf("object", func(p *apiextv1.JSONSchemaProps) {
			p.AnyOf = []apiextv1.JSONSchemaProps{{Required: []string{"a"}}}
		}), []Rule{RuleAnyOfAdded}},
		{"exclusiveMaximum turned on", schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.Maximum = ptrF(5) }),
			schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.Maximum, p.ExclusiveMaximum = ptrF(5), true }), []Rule{RuleMaxTightened}},
		{"multipleOf relaxed to a divisor", schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.MultipleOf = ptrF(4) }),
			schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.MultipleOf = ptrF(2) }), nil},
		{"multipleOf changed", schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.MultipleOf = ptrF(2) }),
			schemaOf("integer", func(p *apiextv1.JSONSchemaProps) { p.MultipleOf = ptrF(3) }), []Rule{RuleMultipleOfTightened}},
		{"default equal modulo spacing", schemaOf("object", func(p *apiextv1.JSONSchemaProps) { p.Default = raw(`{"a": 1, "b": 2}`) }),
			schemaOf("object", func(p *apiextv1.JSONSchemaProps) { p.Default = raw(`{"b":2,"a":1}`) }), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Rule
			for _, f := range DiffSchemas(&tt.old, &tt.new) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRootFieldsAlwaysKept(t *testing.T) {
	old := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
		"apiVersion": {Type: "string"}, "kind": {Type: "string"}, "metadata": {Type: "object"}, "spec": {Type: "object"}}}
	new := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"spec": {Type: "object"}}}
	if got := DiffSchemas(&old, &new); len(got) != 0 {
		t.Errorf("findings for apiVersion/kind/metadata, which the API server never prunes: %v", got)
	}
}

// TestMetadataFieldsNeverPruned: ObjectMeta fields a v1beta1 CRD listed under metadata (argocd-operator
// 0.0.3 -> 0.0.4 dropped annotations, labels, finalizers, ...) are never pruned: no field-removed.
// A restriction of metadata.name is still compared.
func TestMetadataFieldsNeverPruned(t *testing.T) {
	meta := func(props map[string]apiextv1.JSONSchemaProps) apiextv1.JSONSchemaProps {
		return apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
			"metadata": {Type: "object", Properties: props}, "spec": {Type: "object"}}}
	}
	old := meta(map[string]apiextv1.JSONSchemaProps{"annotations": {Type: "object"}, "labels": {Type: "object"}, "name": {Type: "string"}})
	tests := []struct {
		name string
		new  apiextv1.JSONSchemaProps
		want []Rule
	}{
		{"fields removed", meta(map[string]apiextv1.JSONSchemaProps{"name": {Type: "string"}}), nil},
		{"metadata emptied", meta(nil), nil},
		{"name restricted", meta(map[string]apiextv1.JSONSchemaProps{"annotations": {Type: "object"}, "labels": {Type: "object"},
			"name": {Type: "string", Pattern: "^[a-z]+$"}}), []Rule{RulePatternAdded}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Rule
			for _, f := range DiffSchemas(&old, &tt.new) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldRemovedUnderPreserveUnknownFields: a new CRD with spec.preserveUnknownFields: true (a
// v1beta1 CRD that leaves it unset: infinispan 2.0.x, argocd-operator 0.0.x) prunes nothing, so a
// field removed from its schema keeps its data; with the flag false the removal is an error.
func TestFieldRemovedUnderPreserveUnknownFields(t *testing.T) {
	old := testCRD(apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
		"a": {Type: "string"}, "b": {Type: "string"}}})
	tests := []struct {
		name     string
		preserve bool
		want     []Rule
	}{
		{"pruning", false, []Rule{RuleFieldRemoved}},
		{"preserveUnknownFields", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep := func(c *apiextv1.CustomResourceDefinition) { c.Spec.PreserveUnknownFields = tt.preserve }
			oldC := old.DeepCopy()
			keep(oldC)
			new := testCRD(specWith("a", apiextv1.JSONSchemaProps{Type: "string"}), keep)
			got := rulesAtError(Compare([]*apiextv1.CustomResourceDefinition{oldC}, []*apiextv1.CustomResourceDefinition{new}, WithAPIServerValidation(false)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestIntOrStringAndRootType: spellings that accept the same values are not changes: an untyped
// anyOf of integer and string (v1beta1 CRDs, prometheus-operator 0.32) and x-kubernetes-int-or-string
// (0.37); string widened to int-or-string with its anyOf companion (argocd-operator 0.0.9); an untyped
// root typed object (storageos 2.2.0). A real anyOf still is.
func TestIntOrStringAndRootType(t *testing.T) {
	intOrString := []apiextv1.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}
	stringOrInt := []apiextv1.JSONSchemaProps{{Type: "string"}, {Type: "integer"}}
	tests := []struct {
		name     string
		old, new apiextv1.JSONSchemaProps
		want     []Rule
	}{
		{"untyped anyOf to int-or-string", apiextv1.JSONSchemaProps{AnyOf: stringOrInt},
			apiextv1.JSONSchemaProps{AnyOf: intOrString, XIntOrString: true}, nil},
		{"string to int-or-string", apiextv1.JSONSchemaProps{Type: "string"},
			apiextv1.JSONSchemaProps{AnyOf: intOrString, XIntOrString: true}, nil},
		{"int-or-string to string", apiextv1.JSONSchemaProps{AnyOf: intOrString, XIntOrString: true},
			apiextv1.JSONSchemaProps{Type: "string"}, []Rule{RuleTypeChanged}},
		{"another anyOf added", apiextv1.JSONSchemaProps{Type: "string"},
			apiextv1.JSONSchemaProps{Type: "string", AnyOf: []apiextv1.JSONSchemaProps{{MaxLength: ptrTo(int64(3))}, {Pattern: "^a"}}}, []Rule{RuleAnyOfAdded}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, new := specWith("x", tt.old), specWith("x", tt.new)
			var got []Rule
			for _, f := range DiffSchemas(&old, &new) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("untyped root typed object", func(t *testing.T) {
		old := apiextv1.JSONSchemaProps{Properties: map[string]apiextv1.JSONSchemaProps{"spec": {Type: "object"}}}
		new := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{"spec": {Type: "object"}}}
		if got := DiffSchemas(&old, &new); len(got) != 0 {
			t.Errorf("findings for a root typed object: %v", got)
		}
	})
}
