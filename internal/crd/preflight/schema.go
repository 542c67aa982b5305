package preflight

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/opack/opack/internal/crd/load"
)

// node is a schema node of a flattened version and its path as opack spells it.
type node struct {
	s    *apiextv1.JSONSchemaProps
	path string
}

// walk visits every schema node below s in the order of crdify's and crd-schema-checker's SchemaHas:
// the node, its items (and tuple items), allOf, anyOf, oneOf, not, properties, additionalProperties,
// patternProperties, additionalItems, definitions, dependencies. loc gives each child's location in
// the walker's own spelling (the two walkers spell items, combinators and maps differently).
type locator interface {
	child(parent, kind, key string) string
}

func walk(s *apiextv1.JSONSchemaProps, loc, path string, l locator, visit func(loc string, n node)) {
	if s == nil {
		return
	}
	visit(loc, node{s, path})
	if s.Items != nil {
		walk(s.Items.Schema, l.child(loc, "items", ""), path+"[*]", l, visit)
		for i := range s.Items.JSONSchemas {
			k := strconv.Itoa(i)
			walk(&s.Items.JSONSchemas[i], l.child(loc, "itemsIndex", k), path+"["+k+"]", l, visit)
		}
	}
	for _, c := range []struct {
		kw   string
		list []apiextv1.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range c.list {
			k := strconv.Itoa(i)
			walk(&c.list[i], l.child(loc, c.kw, k), path+"."+c.kw+"["+k+"]", l, visit)
		}
	}
	walk(s.Not, l.child(loc, "not", ""), path+".not", l, visit)
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		walk(&p, l.child(loc, "property", name), load.ChildPath(path, name), l, visit)
	}
	if s.AdditionalProperties != nil {
		walk(s.AdditionalProperties.Schema, l.child(loc, "additionalProperties", ""), path+".*", l, visit)
	}
	for _, k := range sortedKeys(s.PatternProperties) {
		p := s.PatternProperties[k]
		walk(&p, l.child(loc, "patternProperties", k), path+".patternProperties["+k+"]", l, visit)
	}
	if s.AdditionalItems != nil {
		walk(s.AdditionalItems.Schema, l.child(loc, "additionalItems", ""), path+".additionalItems", l, visit)
	}
	for _, k := range sortedKeys(s.Definitions) {
		p := s.Definitions[k]
		walk(&p, l.child(loc, "definitions", k), path+".definitions["+k+"]", l, visit)
	}
	for _, k := range sortedKeys(s.Dependencies) {
		walk(s.Dependencies[k].Schema, l.child(loc, "dependencies", k), path+".dependencies["+k+"]", l, visit)
	}
}

// flatten maps each location to its node; a later node at a location replaces an earlier one, as the
// walkers' maps do.
func flatten(root *apiextv1.JSONSchemaProps, l locator) map[string]node {
	out := map[string]node{}
	walk(root, "^", "^", l, func(loc string, n node) { out[loc] = n })
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keywords are JSONSchemaProps' fields by their JSON names, in declaration order.
var keywords = func() []struct {
	name  string
	index int
} {
	t := reflect.TypeOf(apiextv1.JSONSchemaProps{})
	var out []struct {
		name  string
		index int
	}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, struct {
			name  string
			index int
		}{name, i})
	}
	return out
}()

// differing returns the JSON names of the keywords of o and n that differ, leaving out those in skip.
func differing(o, n *apiextv1.JSONSchemaProps, skip map[string]bool) []string {
	ov, nv := reflect.ValueOf(o).Elem(), reflect.ValueOf(n).Elem()
	var out []string
	for _, k := range keywords {
		if skip[k.name] {
			continue
		}
		if !equal(ov.Field(k.index), nv.Field(k.index)) {
			out = append(out, k.name)
		}
	}
	return out
}

var jsonType = reflect.TypeOf(apiextv1.JSON{})

// equal compares two values of JSONSchemaProps' field types as apimachinery's semantic equality does (an
// empty slice or map is a nil one), with JSON values (defaults, enum values, examples) compared as values
// (load.RawKey): a CRD read from a file and the same CRD as the API server returns it hold the same JSON
// written alike, which a byte comparison of opack's inputs could not promise.
func equal(a, b reflect.Value) bool {
	if a.Type() == jsonType {
		ra, rb := a.Field(0).Bytes(), b.Field(0).Bytes()
		if len(ra) == 0 || len(rb) == 0 {
			return len(ra) == len(rb)
		}
		return load.JSONEqual(ra, rb)
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !equal(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}

// canonical is a JSON form of v with JSON values canonical, for keys that must match when the values do.
func canonical(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return load.RawKey(raw)
}

// sortKubeAware orders versions oldest first (v1alpha1, v1beta1, v1, v2).
func sortKubeAware(vs []*apiextv1.CustomResourceDefinitionVersion) {
	sort.SliceStable(vs, func(i, j int) bool {
		return version.CompareKubeAwareVersionStrings(vs[i].Name, vs[j].Name) < 0
	})
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// short renders a keyword's value for a message, cut to a readable length.
func short(v reflect.Value) string {
	if v.IsZero() || (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return "unset"
	}
	s := canonical(v.Interface())
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// describe says what the keywords of o and n changed: "x-kubernetes-list-type unset -> \"atomic\"".
func describe(o, n *apiextv1.JSONSchemaProps, names []string) string {
	ov, nv := reflect.ValueOf(o).Elem(), reflect.ValueOf(n).Elem()
	parts := make([]string, 0, len(names))
	for _, name := range names {
		for _, k := range keywords {
			if k.name == name {
				parts = append(parts, name+" "+short(ov.Field(k.index))+" -> "+short(nv.Field(k.index)))
			}
		}
	}
	return strings.Join(parts, "; ")
}
