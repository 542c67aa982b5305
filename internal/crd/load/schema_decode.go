package load

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kjson "sigs.k8s.io/json"
)

// apiextensions' JSONSchemaPropsOrArray and JSONSchemaPropsOrBool decode themselves by calling
// the JSON decoder again on their bytes, so every level of items and additionalProperties
// scans its whole subtree once more: on the embedded CRDs of a real catalog, decoding was a third
// of `opack catalog validate`. fastCRD decodes the schemas in one pass, by hand, and everything
// else with the API server's decoder (kjson). It decodes only what it is sure of, exactly as
// kjson would (TestFastCRDSameAsKJSON on every CRD of the corpus, FuzzFastCRD): any null, a
// key given twice, a number or string it does not take as is, and it gives up (ok false), and the
// caller decodes the whole CRD with kjson, which words any error.

// fastCRD decodes an apiextensions.k8s.io/v1 CRD given as JSON; ok is false when the caller must
// decode it with kjson instead. strict also gives up on any key that is not exactly a field name,
// so that the result is also encoding/json's, which matches field names case-insensitively
// (DecodeV1).
func fastCRD(data []byte, share *sharing, strict bool) (*apiextv1.CustomResourceDefinition, bool) {
	if !json.Valid(data) {
		return nil, false
	}
	return decodeValidCRD(data, share, strict)
}

// decodeValidCRD is fastCRD for data known to be valid JSON.
func decodeValidCRD(data []byte, share *sharing, strict bool) (*apiextv1.CustomResourceDefinition, bool) {
	schemas, ok := decodeSchemas(data, share, strict)
	if !ok || len(schemas) == 0 {
		return nil, false
	}
	stripped := make([]byte, 0, len(data))
	last := 0
	for _, r := range schemas {
		stripped = append(append(stripped, data[last:r.start]...), "{}"...)
		last = r.end
	}
	stripped = append(stripped, data[last:]...)
	out := &apiextv1.CustomResourceDefinition{}
	if !decodeKJSON(stripped, out, strict) {
		return nil, false
	}
	for _, r := range schemas {
		if r.version >= len(out.Spec.Versions) {
			return nil, false
		}
		v := &out.Spec.Versions[r.version]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return nil, false
		}
		v.Schema.OpenAPIV3Schema = r.props
	}
	return out, true
}

// schemaAt is the decoded spec.versions[version].schema.openAPIV3Schema at data[start:end].
type schemaAt struct {
	version, start, end int
	props               *apiextv1.JSONSchemaProps
}

// decodeSchemas decodes the spec.versions[i].schema.openAPIV3Schema objects of valid JSON; ok is
// false for a key given twice on that path or a schema left to kjson.
func decodeSchemas(data []byte, share *sharing, strict bool) (out []schemaAt, ok bool) {
	spec, ok := member(data, skipSpace(data, 0), "spec")
	if !ok || spec < 0 {
		return nil, ok
	}
	versions, ok := member(data, spec, "versions")
	if !ok || versions < 0 || data[versions] != '[' {
		return nil, ok
	}
	n := 0
	for i := skipSpace(data, versions+1); data[i] != ']'; n++ {
		if data[i] == '{' {
			schema, ok := member(data, i, "schema")
			if !ok {
				return nil, false
			}
			if schema >= 0 && data[schema] == '{' {
				s, ok := member(data, schema, "openAPIV3Schema")
				if !ok {
					return nil, false
				}
				if s >= 0 && data[s] == '{' {
					d := schemaDecoder{data: data, i: s, share: share, strict: strict}
					p, ok := d.props()
					if !ok {
						return nil, false
					}
					out = append(out, schemaAt{version: n, start: s, end: d.i, props: p})
				}
			}
		}
		i = nextItem(data, skipValue(data, i))
	}
	return out, true
}

// member returns where the value of key starts in the object at i (-1: absent, or not an
// object); ok is false when the key is given twice.
func member(data []byte, i int, key string) (at int, ok bool) {
	at = -1
	if data[i] != '{' {
		return at, true
	}
	for i = skipSpace(data, i+1); data[i] != '}'; {
		end := skipValue(data, i)
		k := data[i+1 : end-1]
		i = skipSpace(data, skipSpace(data, end)+1)
		if string(k) == key || bytes.IndexByte(k, '\\') >= 0 {
			if at >= 0 || string(k) != key {
				return -1, false // twice, or an escaped key that may spell it
			}
			at = i
		}
		i = nextItem(data, skipValue(data, i))
	}
	return at, true
}

// nextItem returns where the next member or element starts after the value ending at i (past
// white space and the comma), or the closing bracket.
func nextItem(data []byte, i int) int {
	i = skipSpace(data, i)
	if data[i] == ',' {
		i = skipSpace(data, i+1)
	}
	return i
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the valid JSON value at i.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch data[i] {
			case '"':
				i = skipString(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	default:
		for i < len(data) && !isDelim[data[i]] {
			i++
		}
		return i
	}
}

// isDelim marks the bytes that end a JSON number or literal.
var isDelim = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\r': true, '\n': true}

// skipString returns the end of the valid JSON string at i.
func skipString(data []byte, i int) int {
	for i++; ; i++ {
		i += bytes.IndexByte(data[i:], '"')
		k := i - 1
		for data[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1 // not escaped: an even number of backslashes before it
		}
	}
}

// schemaDecoder decodes JSONSchemaProps from valid JSON at i; every method leaves i after the
// value it read, or returns false.
type schemaDecoder struct {
	data   []byte
	i      int
	share  *sharing // nil: no sharing
	depth  int      // schemas being decoded around i
	strict bool     // give up on unknown keys (fastCRD)
}

// value returns the raw bytes of the next value and moves past it.
func (d *schemaDecoder) value() []byte {
	start := d.i
	d.i = skipValue(d.data, d.i)
	return d.data[start:d.i]
}

// object calls fn for each key of the object at i (fn reads the value); false for a key given
// twice (kjson merges or overwrites: left to it), a non-object or fn's false.
func (d *schemaDecoder) object(fn func(key string) bool) bool {
	var buf [16]string
	seen := buf[:0]
	return d.members(func(k string) bool {
		if slices.Contains(seen, k) {
			return false
		}
		seen = append(seen, k)
		return fn(k)
	})
}

// members calls fn for each key of the object at i, repeated keys included; false for a null
// value (kjson's handling depends on the field), a non-object or fn's false.
func (d *schemaDecoder) members(fn func(key string) bool) bool {
	if d.data[d.i] != '{' {
		return false
	}
	for d.i = skipSpace(d.data, d.i+1); d.data[d.i] != '}'; {
		k, ok := d.str()
		if !ok {
			return false
		}
		d.i = skipSpace(d.data, skipSpace(d.data, d.i)+1)
		if d.data[d.i] == 'n' || !fn(k) {
			return false
		}
		d.i = nextItem(d.data, d.i)
	}
	d.i++
	return true
}

// array calls fn for each element of the array at i (a null element: false, unless nulls).
func (d *schemaDecoder) array(fn func() bool, nulls ...bool) bool {
	if d.data[d.i] != '[' {
		return false
	}
	for d.i = skipSpace(d.data, d.i+1); d.data[d.i] != ']'; {
		if (d.data[d.i] == 'n' && len(nulls) == 0) || !fn() {
			return false
		}
		d.i = nextItem(d.data, d.i)
	}
	d.i++
	return true
}

// str reads a string; one with escapes or invalid UTF-8 is unquoted by encoding/json, whose
// rules kjson shares.
func (d *schemaDecoder) str() (string, bool) {
	v := d.value()
	if v[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

func (d *schemaDecoder) strPtr() (*string, bool) {
	s, ok := d.str()
	return &s, ok
}

func (d *schemaDecoder) boolean() (bool, bool) {
	switch v := d.value(); string(v) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func (d *schemaDecoder) float() (*float64, bool) {
	v := d.value()
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return nil, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return &f, err == nil
}

func (d *schemaDecoder) integer() (*int64, bool) {
	n, err := strconv.ParseInt(string(d.value()), 10, 64)
	return &n, err == nil
}

// raw is a JSON field (default, example, enum values): the value's bytes, copied; null is no
// bytes (JSON.UnmarshalJSON).
func (d *schemaDecoder) raw() apiextv1.JSON {
	v := d.value()
	if string(v) == "null" {
		return apiextv1.JSON{}
	}
	return apiextv1.JSON{Raw: bytes.Clone(v)}
}

func (d *schemaDecoder) strings() ([]string, bool) {
	out := []string{}
	ok := d.array(func() bool {
		s, ok := d.str()
		out = append(out, s)
		return ok
	})
	return out, ok
}

func (d *schemaDecoder) propsList() ([]apiextv1.JSONSchemaProps, bool) {
	out := []apiextv1.JSONSchemaProps{}
	ok := d.array(func() bool {
		p, ok := d.props()
		if ok {
			out = append(out, *p)
		}
		return ok
	})
	return out, ok
}

func (d *schemaDecoder) propsMap() (map[string]apiextv1.JSONSchemaProps, bool) {
	out := map[string]apiextv1.JSONSchemaProps{}
	// Property names may repeat: kjson keeps the last, as the map does.
	ok := d.members(func(k string) bool {
		p, ok := d.props()
		if ok {
			out[k] = *p
		}
		return ok
	})
	return out, ok
}

// kjsonValue decodes the next value into v with kjson (fields rare enough not to hand-decode).
func (d *schemaDecoder) kjsonValue(v any) bool {
	return decodeKJSON(d.value(), v, d.strict)
}

// decodeKJSON decodes data into v with kjson; strict: false also for an unknown or repeated key.
func decodeKJSON(data []byte, v any, strict bool) bool {
	if !strict {
		return kjson.UnmarshalCaseSensitivePreserveInts(data, v) == nil
	}
	strictErrs, err := kjson.UnmarshalStrict(data, v, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	return err == nil && len(strictErrs) == 0
}
