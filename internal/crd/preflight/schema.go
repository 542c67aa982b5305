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

// node is a schema node of a flattened version, its path as opack spells it, and the node above it
// with its path (nil at the root).
type node struct {
	s          *apiextv1.JSONSchemaProps
	path       string
	parent     *apiextv1.JSONSchemaProps
	parentPath string
}

// walk visits every schema node below s in the order of crdify's and crd-schema-checker's SchemaHas:
// the node, its items (and tuple items), allOf, anyOf, oneOf, not, properties, additionalProperties,
// patternProperties, additionalItems, definitions, dependencies. loc gives each child's location in
// the walker's own spelling (the two walkers spell items, combinators and maps differently).
type locator interface {
	child(parent, kind, key string) string
}

func walk(s *apiextv1.JSONSchemaProps, loc, path string, l locator, visit func(loc string, n node), up *apiextv1.JSONSchemaProps, upPath string) {
	if s == nil {
		return
	}
	visit(loc, node{s, path, up, upPath})
	if s.Items != nil {
		walk(s.Items.Schema, l.child(loc, "items", ""), path+"[*]", l, visit, s, path)
		for i := range s.Items.JSONSchemas {
			k := strconv.Itoa(i)
			walk(&s.Items.JSONSchemas[i], l.child(loc, "itemsIndex", k), path+"["+k+"]", l, visit, s, path)
		}
	}
	for _, c := range []struct {
		kw   string
		list []apiextv1.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range c.list {
			k := strconv.Itoa(i)
			walk(&c.list[i], l.child(loc, c.kw, k), path+"."+c.kw+"["+k+"]", l, visit, s, path)
		}
	}
	walk(s.Not, l.child(loc, "not", ""), path+".not", l, visit, s, path)
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		walk(&p, l.child(loc, "property", name), load.ChildPath(path, name), l, visit, s, path)
	}
	if s.AdditionalProperties != nil {
		walk(s.AdditionalProperties.Schema, l.child(loc, "additionalProperties", ""), path+".*", l, visit, s, path)
	}
	for _, k := range sortedKeys(s.PatternProperties) {
		p := s.PatternProperties[k]
		walk(&p, l.child(loc, "patternProperties", k), path+".patternProperties["+k+"]", l, visit, s, path)
	}
	if s.AdditionalItems != nil {
		walk(s.AdditionalItems.Schema, l.child(loc, "additionalItems", ""), path+".additionalItems", l, visit, s, path)
	}
	for _, k := range sortedKeys(s.Definitions) {
		p := s.Definitions[k]
		walk(&p, l.child(loc, "definitions", k), path+".definitions["+k+"]", l, visit, s, path)
	}
	for _, k := range sortedKeys(s.Dependencies) {
		walk(s.Dependencies[k].Schema, l.child(loc, "dependencies", k), path+".dependencies["+k+"]", l, visit, s, path)
	}
}

// pos is where walkPairs is: the location in crdify's spelling, the path in opack's, and the old node
// above (nil at the root) with its path.
type pos struct {
	loc, path  string
	parent     *apiextv1.JSONSchemaProps
	parentPath string
}

// walkPairs visits each node of o's tree with the node at the same location of n's tree (nil where n lacks
// it), in crdify's spelling of locations, leaving out the subtrees o and n hold alike, and those below a
// node visit says not to descend into.
func walkPairs(o, n *apiextv1.JSONSchemaProps, at pos, visit func(at pos, o, n *apiextv1.JSONSchemaProps) bool) {
	if o == nil || n != nil && eqSchema(o, n) {
		return
	}
	if !visit(at, o, n) {
		return
	}
	var l crdifyLocator
	loc, path := at.loc, at.path
	below := func(loc, p string) pos { return pos{loc, p, o, path} }
	pick := func(get func(*apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
		if n == nil {
			return nil
		}
		return get(n)
	}
	if o.Items != nil {
		walkPairs(o.Items.Schema, pick(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
			if s.Items == nil {
				return nil
			}
			return s.Items.Schema
		}), below(l.child(loc, "items", ""), path+"[*]"), visit)
		for i := range o.Items.JSONSchemas {
			k := strconv.Itoa(i)
			walkPairs(&o.Items.JSONSchemas[i], pick(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
				if s.Items == nil || i >= len(s.Items.JSONSchemas) {
					return nil
				}
				return &s.Items.JSONSchemas[i]
			}), below(l.child(loc, "itemsIndex", k), path+"["+k+"]"), visit)
		}
	}
	for _, c := range []struct {
		kw  string
		get func(*apiextv1.JSONSchemaProps) []apiextv1.JSONSchemaProps
	}{
		{"allOf", func(s *apiextv1.JSONSchemaProps) []apiextv1.JSONSchemaProps { return s.AllOf }},
		{"anyOf", func(s *apiextv1.JSONSchemaProps) []apiextv1.JSONSchemaProps { return s.AnyOf }},
		{"oneOf", func(s *apiextv1.JSONSchemaProps) []apiextv1.JSONSchemaProps { return s.OneOf }},
	} {
		ol := c.get(o)
		for i := range ol {
			k := strconv.Itoa(i)
			walkPairs(&ol[i], pick(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps {
				if nl := c.get(s); i < len(nl) {
					return &nl[i]
				}
				return nil
			}), below(l.child(loc, c.kw, k), path+"."+c.kw+"["+k+"]"), visit)
		}
	}
	walkPairs(o.Not, pick(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaProps { return s.Not }), below(l.child(loc, "not", ""), path+".not"), visit)
	for _, m := range []struct {
		kind, sep string
		get       func(*apiextv1.JSONSchemaProps) map[string]apiextv1.JSONSchemaProps
	}{
		{"property", "", func(s *apiextv1.JSONSchemaProps) map[string]apiextv1.JSONSchemaProps { return s.Properties }},
		{"patternProperties", ".patternProperties", func(s *apiextv1.JSONSchemaProps) map[string]apiextv1.JSONSchemaProps { return s.PatternProperties }},
		{"definitions", ".definitions", func(s *apiextv1.JSONSchemaProps) map[string]apiextv1.JSONSchemaProps { return s.Definitions }},
	} {
		om := m.get(o)
		var nm map[string]apiextv1.JSONSchemaProps
		if n != nil {
			nm = m.get(n)
		}
		if len(om) == 0 || n != nil && eqMap(om, nm) {
			continue
		}
		for _, name := range sortedKeys(om) {
			// Compared on the stack first: only a property that differs is copied to the heap to walk.
			op := om[name]
			v, ok := nm[name]
			if ok && eqSchema(&op, &v) {
				continue
			}
			ocopy := op
			var np *apiextv1.JSONSchemaProps
			if ok {
				ncopy := v
				np = &ncopy
			}
			p := load.ChildPath(path, name)
			if m.kind != "property" {
				p = path + m.sep + "[" + name + "]"
			}
			walkPairs(&ocopy, np, below(l.child(loc, m.kind, name), p), visit)
		}
	}
	orBool := func(get func(*apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaPropsOrBool) (*apiextv1.JSONSchemaProps, *apiextv1.JSONSchemaProps) {
		ob := get(o)
		if ob == nil {
			return nil, nil
		}
		var ns *apiextv1.JSONSchemaProps
		if n != nil {
			if nb := get(n); nb != nil {
				ns = nb.Schema
			}
		}
		return ob.Schema, ns
	}
	os, ns := orBool(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaPropsOrBool { return s.AdditionalProperties })
	walkPairs(os, ns, below(l.child(loc, "additionalProperties", ""), path+".*"), visit)
	os, ns = orBool(func(s *apiextv1.JSONSchemaProps) *apiextv1.JSONSchemaPropsOrBool { return s.AdditionalItems })
	walkPairs(os, ns, below(l.child(loc, "additionalItems", ""), path+".additionalItems"), visit)
	for _, k := range sortedKeys(o.Dependencies) {
		var nd *apiextv1.JSONSchemaProps
		if n != nil {
			nd = n.Dependencies[k].Schema
		}
		walkPairs(o.Dependencies[k].Schema, nd, below(l.child(loc, "dependencies", k), path+".dependencies["+k+"]"), visit)
	}
}

// flatten maps each location to its node; a later node at a location replaces an earlier one, as the
// walkers' maps do.
func flatten(root *apiextv1.JSONSchemaProps, l locator) map[string]node {
	out := map[string]node{}
	walk(root, "^", "^", l, func(loc string, n node) { out[loc] = n }, nil, "")
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

// keywords are JSONSchemaProps' fields by their JSON names and field indexes, for messages.
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

// sameSchema reports whether two versions' schemas are equal (eqSchema).
func sameSchema(a, b *apiextv1.CustomResourceDefinitionVersion) bool {
	as, _ := schemaOf(a)
	bs, _ := schemaOf(b)
	return eqSchema(as, bs)
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

// subtrees are the keywords that hold schemas: a change inside one is described, not printed.
var subtrees = map[string]bool{
	"items": true, "allOf": true, "anyOf": true, "oneOf": true, "not": true, "properties": true,
	"additionalProperties": true, "patternProperties": true, "additionalItems": true, "definitions": true, "dependencies": true,
}

// describe says what the keywords of o and n changed: "x-kubernetes-list-type unset -> \"atomic\"".
func describe(o, n *apiextv1.JSONSchemaProps, names []string) string {
	ov, nv := reflect.ValueOf(o).Elem(), reflect.ValueOf(n).Elem()
	parts := make([]string, 0, len(names))
	for _, name := range names {
		for _, k := range keywords {
			if k.name != name {
				continue
			}
			o, n := ov.Field(k.index), nv.Field(k.index)
			switch {
			case subtrees[name] && !o.IsZero() && !n.IsZero():
				parts = append(parts, "a change inside "+name+" (compared whole, descriptions included)")
			default:
				parts = append(parts, name+" "+short(o)+" -> "+short(n))
			}
		}
	}
	return strings.Join(parts, "; ")
}

// diffKey identifies what two nodes differ in, in the keywords named, as crdify's "unhandled" error says
// it: a cmp.Diff of the two nodes, which prints the values that differ (down to the nested fields, list
// elements and map entries) and elides the rest. The served-version validator drops an error OLD's served
// versions already had only when that text is the same.
func diffKey(o, n *apiextv1.JSONSchemaProps, names []string) string {
	var b strings.Builder
	ov, nv := reflect.ValueOf(o).Elem(), reflect.ValueOf(n).Elem()
	for _, name := range names {
		for _, k := range keywords {
			if k.name == name {
				diffValue(&b, name, ov.Field(k.index), nv.Field(k.index))
			}
		}
	}
	return b.String()
}

func diffValue(b *strings.Builder, path string, x, y reflect.Value) {
	differ := func() {
		b.WriteString(path + "\x00" + canonical(x.Interface()) + "\x00" + canonical(y.Interface()) + "\x00")
	}
	if x.Type() == jsonType {
		if !eqRaw(x.Field(0).Bytes(), y.Field(0).Bytes()) {
			differ()
		}
		return
	}
	switch x.Kind() {
	case reflect.Pointer:
		if x.IsNil() || y.IsNil() {
			if x.IsNil() != y.IsNil() {
				differ()
			}
			return
		}
		diffValue(b, path, x.Elem(), y.Elem())
	case reflect.Struct:
		for i := 0; i < x.NumField(); i++ {
			diffValue(b, path+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
		}
	case reflect.Slice:
		if x.Len() != y.Len() {
			differ()
			return
		}
		for i := 0; i < x.Len(); i++ {
			diffValue(b, path+"["+strconv.Itoa(i)+"]", x.Index(i), y.Index(i))
		}
	case reflect.Map:
		keys := map[string]bool{}
		for _, k := range x.MapKeys() {
			keys[k.String()] = true
		}
		for _, k := range y.MapKeys() {
			keys[k.String()] = true
		}
		for _, k := range sortedKeys(keys) {
			kv := reflect.ValueOf(k).Convert(x.Type().Key())
			xe, ye := x.MapIndex(kv), y.MapIndex(kv)
			switch {
			case !xe.IsValid() || !ye.IsValid():
				b.WriteString(path + "[" + k + "]\x00" + fmtValid(xe) + "\x00" + fmtValid(ye) + "\x00")
			default:
				diffValue(b, path+"["+k+"]", xe, ye)
			}
		}
	default:
		if x.Interface() != y.Interface() {
			differ()
		}
	}
}

var jsonType = reflect.TypeOf(apiextv1.JSON{})

func fmtValid(v reflect.Value) string {
	if !v.IsValid() {
		return "-"
	}
	return canonical(v.Interface())
}
