package preflight

import (
	"reflect"
	"slices"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// The preflights compare schema nodes keyword by keyword on every node of every version (and every pair of
// served versions): written out by hand, the comparison costs a fraction of a reflective one, and stops at
// maps and nodes two CRDs share (load.FromJSONSharing).

// keyword is a JSONSchemaProps field by its JSON name, with its equality.
type keyword struct {
	name string
	eq   func(a, b *apiextv1.JSONSchemaProps) bool
}

// schemaKeywords are JSONSchemaProps' fields in declaration order. Equality is apimachinery's semantic one
// (an empty slice or map is a nil one) with JSON values compared as values (load.JSONEqual): a CRD read
// from a file and the same CRD as the API server returns it hold the same JSON written alike, which a
// byte comparison of opack's inputs could not promise.
var schemaKeywords []keyword

func init() {
	schemaKeywords = []keyword{
		{"id", func(a, b *apiextv1.JSONSchemaProps) bool { return a.ID == b.ID }},
		{"$schema", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Schema == b.Schema }},
		{"$ref", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.Ref, b.Ref) }},
		{"description", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Description == b.Description }},
		{"type", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Type == b.Type }},
		{"format", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Format == b.Format }},
		{"title", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Title == b.Title }},
		{"default", func(a, b *apiextv1.JSONSchemaProps) bool { return eqJSON(a.Default, b.Default) }},
		{"maximum", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.Maximum, b.Maximum) }},
		{"exclusiveMaximum", func(a, b *apiextv1.JSONSchemaProps) bool { return a.ExclusiveMaximum == b.ExclusiveMaximum }},
		{"minimum", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.Minimum, b.Minimum) }},
		{"exclusiveMinimum", func(a, b *apiextv1.JSONSchemaProps) bool { return a.ExclusiveMinimum == b.ExclusiveMinimum }},
		{"maxLength", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MaxLength, b.MaxLength) }},
		{"minLength", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MinLength, b.MinLength) }},
		{"pattern", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Pattern == b.Pattern }},
		{"maxItems", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MaxItems, b.MaxItems) }},
		{"minItems", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MinItems, b.MinItems) }},
		{"uniqueItems", func(a, b *apiextv1.JSONSchemaProps) bool { return a.UniqueItems == b.UniqueItems }},
		{"multipleOf", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MultipleOf, b.MultipleOf) }},
		{"enum", func(a, b *apiextv1.JSONSchemaProps) bool {
			return slices.EqualFunc(a.Enum, b.Enum, func(x, y apiextv1.JSON) bool { return eqRaw(x.Raw, y.Raw) })
		}},
		{"maxProperties", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MaxProperties, b.MaxProperties) }},
		{"minProperties", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.MinProperties, b.MinProperties) }},
		{"required", func(a, b *apiextv1.JSONSchemaProps) bool { return slices.Equal(a.Required, b.Required) }},
		{"items", func(a, b *apiextv1.JSONSchemaProps) bool { return eqItems(a.Items, b.Items) }},
		{"allOf", func(a, b *apiextv1.JSONSchemaProps) bool { return eqList(a.AllOf, b.AllOf) }},
		{"oneOf", func(a, b *apiextv1.JSONSchemaProps) bool { return eqList(a.OneOf, b.OneOf) }},
		{"anyOf", func(a, b *apiextv1.JSONSchemaProps) bool { return eqList(a.AnyOf, b.AnyOf) }},
		{"not", func(a, b *apiextv1.JSONSchemaProps) bool { return eqSchema(a.Not, b.Not) }},
		{"properties", func(a, b *apiextv1.JSONSchemaProps) bool { return eqMap(a.Properties, b.Properties) }},
		{"additionalProperties", func(a, b *apiextv1.JSONSchemaProps) bool {
			return eqOrBool(a.AdditionalProperties, b.AdditionalProperties)
		}},
		{"patternProperties", func(a, b *apiextv1.JSONSchemaProps) bool { return eqMap(a.PatternProperties, b.PatternProperties) }},
		{"dependencies", func(a, b *apiextv1.JSONSchemaProps) bool { return eqDependencies(a.Dependencies, b.Dependencies) }},
		{"additionalItems", func(a, b *apiextv1.JSONSchemaProps) bool { return eqOrBool(a.AdditionalItems, b.AdditionalItems) }},
		{"definitions", func(a, b *apiextv1.JSONSchemaProps) bool { return eqMap(a.Definitions, b.Definitions) }},
		{"externalDocs", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.ExternalDocs, b.ExternalDocs) }},
		{"example", func(a, b *apiextv1.JSONSchemaProps) bool { return eqJSON(a.Example, b.Example) }},
		{"nullable", func(a, b *apiextv1.JSONSchemaProps) bool { return a.Nullable == b.Nullable }},
		{"x-kubernetes-preserve-unknown-fields", func(a, b *apiextv1.JSONSchemaProps) bool {
			return eqPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields)
		}},
		{"x-kubernetes-embedded-resource", func(a, b *apiextv1.JSONSchemaProps) bool { return a.XEmbeddedResource == b.XEmbeddedResource }},
		{"x-kubernetes-int-or-string", func(a, b *apiextv1.JSONSchemaProps) bool { return a.XIntOrString == b.XIntOrString }},
		{"x-kubernetes-list-map-keys", func(a, b *apiextv1.JSONSchemaProps) bool { return slices.Equal(a.XListMapKeys, b.XListMapKeys) }},
		{"x-kubernetes-list-type", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.XListType, b.XListType) }},
		{"x-kubernetes-map-type", func(a, b *apiextv1.JSONSchemaProps) bool { return eqPtr(a.XMapType, b.XMapType) }},
		{"x-kubernetes-validations", func(a, b *apiextv1.JSONSchemaProps) bool {
			return slices.EqualFunc(a.XValidations, b.XValidations, func(x, y apiextv1.ValidationRule) bool {
				return x.Rule == y.Rule && x.Message == y.Message && x.MessageExpression == y.MessageExpression &&
					eqPtr(x.Reason, y.Reason) && x.FieldPath == y.FieldPath && eqPtr(x.OptionalOldSelf, y.OptionalOldSelf)
			})
		}},
	}
	if n := reflect.TypeOf(apiextv1.JSONSchemaProps{}).NumField(); n != len(schemaKeywords) {
		panic("preflight: JSONSchemaProps has fields the comparison does not know")
	}
}

// Equal reports whether two schemas are equal: every keyword, JSON values compared as values.
func Equal(a, b *apiextv1.JSONSchemaProps) bool { return eqSchema(a, b) }

// eqSchema reports whether two schemas are equal, keyword by keyword (schemaKeywords' equalities, written
// out: a call through the table's functions makes the compiler move every compared node to the heap).
func eqSchema(a, b *apiextv1.JSONSchemaProps) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a == b {
		return true
	}
	return a.ID == b.ID && a.Schema == b.Schema && eqPtr(a.Ref, b.Ref) && a.Description == b.Description &&
		a.Type == b.Type && a.Format == b.Format && a.Title == b.Title && eqJSON(a.Default, b.Default) &&
		eqPtr(a.Maximum, b.Maximum) && a.ExclusiveMaximum == b.ExclusiveMaximum && eqPtr(a.Minimum, b.Minimum) &&
		a.ExclusiveMinimum == b.ExclusiveMinimum && eqPtr(a.MaxLength, b.MaxLength) && eqPtr(a.MinLength, b.MinLength) &&
		a.Pattern == b.Pattern && eqPtr(a.MaxItems, b.MaxItems) && eqPtr(a.MinItems, b.MinItems) &&
		a.UniqueItems == b.UniqueItems && eqPtr(a.MultipleOf, b.MultipleOf) && eqEnum(a.Enum, b.Enum) &&
		eqPtr(a.MaxProperties, b.MaxProperties) && eqPtr(a.MinProperties, b.MinProperties) &&
		slices.Equal(a.Required, b.Required) && eqItems(a.Items, b.Items) && eqList(a.AllOf, b.AllOf) &&
		eqList(a.OneOf, b.OneOf) && eqList(a.AnyOf, b.AnyOf) && eqSchema(a.Not, b.Not) && eqMap(a.Properties, b.Properties) &&
		eqOrBool(a.AdditionalProperties, b.AdditionalProperties) && eqMap(a.PatternProperties, b.PatternProperties) &&
		eqDependencies(a.Dependencies, b.Dependencies) && eqOrBool(a.AdditionalItems, b.AdditionalItems) &&
		eqMap(a.Definitions, b.Definitions) && eqPtr(a.ExternalDocs, b.ExternalDocs) && eqJSON(a.Example, b.Example) &&
		a.Nullable == b.Nullable && eqPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) &&
		a.XEmbeddedResource == b.XEmbeddedResource && a.XIntOrString == b.XIntOrString &&
		slices.Equal(a.XListMapKeys, b.XListMapKeys) && eqPtr(a.XListType, b.XListType) && eqPtr(a.XMapType, b.XMapType) &&
		eqRules(a.XValidations, b.XValidations)
}

func eqEnum(a, b []apiextv1.JSON) bool {
	return slices.EqualFunc(a, b, func(x, y apiextv1.JSON) bool { return eqRaw(x.Raw, y.Raw) })
}

func eqRules(a, b apiextv1.ValidationRules) bool {
	return slices.EqualFunc(a, b, func(x, y apiextv1.ValidationRule) bool {
		return x.Rule == y.Rule && x.Message == y.Message && x.MessageExpression == y.MessageExpression &&
			eqPtr(x.Reason, y.Reason) && x.FieldPath == y.FieldPath && eqPtr(x.OptionalOldSelf, y.OptionalOldSelf)
	})
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqRaw(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	return load.JSONEqual(a, b)
}

func eqJSON(a, b *apiextv1.JSON) bool {
	if a == nil || b == nil {
		return a == b
	}
	return eqRaw(a.Raw, b.Raw)
}

func eqList(a, b []apiextv1.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 0 && &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if !eqSchema(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func eqMap(a, b map[string]apiextv1.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true // one map: CRDs decoded from identical text share it
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !eqSchema(&av, &bv) {
			return false
		}
	}
	return true
}

func eqItems(a, b *apiextv1.JSONSchemaPropsOrArray) bool {
	if a == nil || b == nil {
		return a == b
	}
	return eqSchema(a.Schema, b.Schema) && eqList(a.JSONSchemas, b.JSONSchemas)
}

func eqOrBool(a, b *apiextv1.JSONSchemaPropsOrBool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && eqSchema(a.Schema, b.Schema)
}

func eqDependencies(a, b apiextv1.JSONSchemaDependencies) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !eqSchema(av.Schema, bv.Schema) || !slices.Equal(av.Property, bv.Property) {
			return false
		}
	}
	return true
}

// differing returns the JSON names of the keywords of o and n that differ, leaving out those in skip.
func differing(o, n *apiextv1.JSONSchemaProps, skip map[string]bool) []string {
	var out []string
	for _, k := range schemaKeywords {
		if !skip[k.name] && !k.eq(o, n) {
			out = append(out, k.name)
		}
	}
	return out
}
