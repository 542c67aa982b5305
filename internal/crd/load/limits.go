package load

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// MaxSchemaDepth is how deeply an openAPIV3Schema may nest (properties, items, additionalProperties,
// combinators, ...). The deepest of 1,140 CRDs of the certified-operators catalog nests 15 levels;
// a hostile CRD nested thousands of levels deep would make every walk over it (and the JSON paths of
// its findings) cost memory quadratic in its depth, so FromUnstructured refuses it.
const MaxSchemaDepth = 64

// maxPathName bounds the bytes of one property name in a finding's path; longer names are cut and
// given a hash so that different names stay different paths.
const maxPathName = 64

// checkDepth refuses a CRD with a version schema nested deeper than MaxSchemaDepth.
func checkDepth(c *apiextv1.CustomResourceDefinition) error {
	for _, v := range c.Spec.Versions {
		if v.Schema == nil {
			continue
		}
		if !deeperThan(v.Schema.OpenAPIV3Schema, MaxSchemaDepth) {
			continue // the common case, decided without building paths
		}
		if path, ok := tooDeep(v.Schema.OpenAPIV3Schema, "^", MaxSchemaDepth); ok {
			if len(path) > 200 {
				path = strings.ToValidUTF8(path[:200], "") + "..."
			}
			return fmt.Errorf("version %s: the schema nests deeper than %d levels (at %s); opack refuses schemas this deep: flatten it", v.Name, MaxSchemaDepth, path)
		}
	}
	return nil
}

// tooDeep returns the path of a node more than left levels below s, if there is one.
func tooDeep(s *apiextv1.JSONSchemaProps, path string, left int) (string, bool) {
	if s == nil {
		return "", false
	}
	if left == 0 {
		return path, true
	}
	type child struct {
		path string
		s    *apiextv1.JSONSchemaProps
	}
	var kids []child
	for _, m := range []struct {
		kw string
		m  map[string]apiextv1.JSONSchemaProps
	}{{"", s.Properties}, {"patternProperties", s.PatternProperties}, {"definitions", s.Definitions}} {
		names := make([]string, 0, len(m.m))
		for name := range m.m {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := path
			if m.kw != "" {
				p += "." + m.kw
			}
			v := m.m[name]
			kids = append(kids, child{ChildPath(p, name), &v})
		}
	}
	for name, d := range s.Dependencies {
		kids = append(kids, child{path + ".dependencies." + name, d.Schema})
	}
	if s.Items != nil {
		kids = append(kids, child{path + "[*]", s.Items.Schema})
		for i := range s.Items.JSONSchemas {
			kids = append(kids, child{path + "[" + strconv.Itoa(i) + "]", &s.Items.JSONSchemas[i]})
		}
	}
	if s.AdditionalProperties != nil {
		kids = append(kids, child{path + ".*", s.AdditionalProperties.Schema})
	}
	if s.AdditionalItems != nil {
		kids = append(kids, child{path + ".additionalItems", s.AdditionalItems.Schema})
	}
	for _, l := range []struct {
		kw   string
		list []apiextv1.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range l.list {
			kids = append(kids, child{path + "." + l.kw + "[" + strconv.Itoa(i) + "]", &l.list[i]})
		}
	}
	kids = append(kids, child{path + ".not", s.Not})
	for _, k := range kids {
		if p, ok := tooDeep(k.s, k.path, left-1); ok {
			return p, true
		}
	}
	return "", false
}

// deeperThan tells whether a node lies more than left levels below s, visiting the children tooDeep
// visits without naming them.
func deeperThan(s *apiextv1.JSONSchemaProps, left int) bool {
	if s == nil {
		return false
	}
	if left == 0 {
		return true
	}
	var v apiextv1.JSONSchemaProps // one per level, declared outside the loops: it stays on the stack
	for _, m := range [...]map[string]apiextv1.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for name := range m {
			if v = m[name]; deeperThan(&v, left-1) {
				return true
			}
		}
	}
	for _, d := range s.Dependencies {
		if deeperThan(d.Schema, left-1) {
			return true
		}
	}
	if s.Items != nil {
		if deeperThan(s.Items.Schema, left-1) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if deeperThan(&s.Items.JSONSchemas[i], left-1) {
				return true
			}
		}
	}
	if s.AdditionalProperties != nil && deeperThan(s.AdditionalProperties.Schema, left-1) {
		return true
	}
	if s.AdditionalItems != nil && deeperThan(s.AdditionalItems.Schema, left-1) {
		return true
	}
	for _, list := range [...][]apiextv1.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if deeperThan(&list[i], left-1) {
				return true
			}
		}
	}
	return deeperThan(s.Not, left-1)
}

// pathName returns name, or for a name longer than maxPathName its start and a hash of it.
func pathName(name string) string {
	if len(name) <= maxPathName {
		return name
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return strings.ToValidUTF8(name[:maxPathName-16], "") + "...(" + strconv.FormatUint(uint64(h.Sum32()), 16) + ")"
}

// ChildPath appends a property name to a schema path, quoting names that are not plain identifiers
// ("^.spec.replicas", "^.spec['a.b']"); a name longer than 64 bytes is cut and given a hash.
func ChildPath(path, name string) string {
	name = pathName(name)
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '-' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return path + "['" + name + "']"
		}
	}
	return path + "." + name
}
