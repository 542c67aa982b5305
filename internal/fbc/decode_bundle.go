package fbc

import (
	"bytes"
	"encoding/json"
)

// decodeBundle decodes an olm.bundle blob (canonical JSON: compact, valid) without
// encoding/json's reflection; see decodeBundleKVs.
func decodeBundle(blob []byte) (Bundle, bool) {
	var kvs []kv
	if err := scanObject(blob, func(k, v []byte) { kvs = append(kvs, kv{k, v}) }); err != nil {
		return Bundle{}, false
	}
	return decodeBundleKVs(kvs)
}

// decodeBundleKVs decodes a bundle from its top-level keys and values, matching field names
// case-insensitively like encoding/json (the last of several spellings wins). Property values
// are sub-slices of the blob. ok is false for anything unexpected (a wrong type, say); the
// caller then uses encoding/json, which words the error.
func decodeBundleKVs(kvs []kv) (b Bundle, ok bool) {
	ok = true
	for _, f := range kvs {
		k, v := f.key, f.val
		switch {
		case bytes.EqualFold(k, []byte("schema")):
			b.Schema, ok = jsonString(v)
		case bytes.EqualFold(k, []byte("name")):
			b.Name, ok = jsonString(v)
		case bytes.EqualFold(k, []byte("package")):
			b.Package, ok = jsonString(v)
		case bytes.EqualFold(k, []byte("image")):
			b.Image, ok = jsonString(v)
		case bytes.EqualFold(k, []byte("properties")):
			b.Properties, ok = decodeProperties(v)
		case bytes.EqualFold(k, []byte("relatedImages")):
			b.RelatedImages, ok = decodeRelatedImages(v)
		}
		if !ok {
			return Bundle{}, false
		}
	}
	return b, true
}

func jsonString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", string(v) == "null"
	}
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') >= 0 {
		var out string
		return out, json.Unmarshal(v, &out) == nil
	}
	return string(s), true
}

// eachObject calls fn with the keys and values of each object of a compact JSON array of
// objects, in one pass; false for anything else (null is an empty array).
func eachObject(v []byte, fn func(k, val []byte) bool, next func()) bool {
	if string(v) == "null" {
		return true
	}
	if len(v) < 2 || v[0] != '[' {
		return false
	}
	good := true
	for i := 1; i < len(v)-1; {
		if v[i] == ',' {
			i++
		}
		next()
		end, err := scanObjectAt(v, i, func(k, val []byte) { good = good && fn(k, val) })
		if err != nil || !good {
			return false
		}
		i = end
	}
	return true
}

func decodeProperties(v []byte) ([]Property, bool) {
	out := []Property{}
	ok := eachObject(v, func(k, val []byte) bool {
		p := &out[len(out)-1]
		switch {
		case bytes.EqualFold(k, []byte("type")):
			s, good := jsonString(val)
			p.Type = s
			return good
		case bytes.EqualFold(k, []byte("value")):
			p.Value = json.RawMessage(val)
		}
		return true
	}, func() { out = append(out, Property{}) })
	if string(v) == "null" {
		out = nil
	}
	return out, ok
}

func decodeRelatedImages(v []byte) ([]RelatedImage, bool) {
	out := []RelatedImage{}
	ok := eachObject(v, func(k, val []byte) bool {
		r := &out[len(out)-1]
		var good bool
		switch {
		case bytes.EqualFold(k, []byte("name")):
			r.Name, good = jsonString(val)
		case bytes.EqualFold(k, []byte("image")):
			r.Image, good = jsonString(val)
		default:
			good = true
		}
		return good
	}, func() { out = append(out, RelatedImage{}) })
	if string(v) == "null" {
		out = nil
	}
	return out, ok
}
