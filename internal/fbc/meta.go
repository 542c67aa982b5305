package fbc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/opack/opack/internal/fbc/internal/codec"
)

// decodeMeta turns one document (as JSON) into a Meta the way opm's Meta.UnmarshalJSON does:
// the blob is re-encoded with keys sorted, numbers as float64 and HTML not escaped, and the
// schema, package and name keys are matched case-insensitively.
//
// canonJSON does this without the map; the full decode/encode round trip runs only for what it
// refuses (non-objects, duplicate keys, escaped keys).
func decodeMeta(raw []byte, fromYAML bool) (Meta, error) {
	blob, ok := codec.CanonJSON(raw)
	if !ok || len(blob) == 0 || blob[0] != '{' {
		var err error
		if blob, err = reencode(raw, fromYAML); err != nil {
			return Meta{}, err
		}
	}
	return metaOf(blob)
}

// metaOf reads the schema, package and name keys of a canonical blob (compact JSON, keys
// sorted) as opm does: case-insensitively, refusing duplicates and non-strings.
func metaOf(blob []byte) (Meta, error) {
	m, _, err := metaKVs(blob, nil)
	return m, err
}

// kv is one top-level key and raw value of a blob.
type kv struct{ key, val []byte }

// metaKVs is metaOf that also returns the blob's top-level keys and values (appended to kvs),
// so that typed decoding need not scan the blob again.
func metaKVs(blob []byte, kvs []kv) (Meta, []kv, error) {
	m := Meta{Blob: blob}
	if len(blob) == 0 || blob[0] != '{' {
		m.Blob = append(blob, '\n')
		return m, kvs, nil
	}
	var found [3][]string
	var vals [3][]byte
	keys := [3]string{"schema", "package", "name"}
	err := scanObject(blob, func(k, v []byte) {
		kvs = append(kvs, kv{k, v})
		for i, want := range keys {
			if bytes.EqualFold(k, []byte(want)) {
				found[i] = append(found[i], string(k))
				vals[i] = v
			}
		}
	})
	if err != nil {
		return Meta{}, kvs, err
	}
	dst := [3]*string{&m.Schema, &m.Package, &m.Name}
	for i, want := range keys {
		switch {
		case len(found[i]) > 1:
			sort.Strings(found[i])
			return Meta{}, kvs, fmt.Errorf("duplicate keys for key %q: %v", want, found[i])
		case len(found[i]) == 1:
			if s, ok := jsonString(vals[i]); ok && vals[i][0] == '"' {
				*dst[i] = s
				continue
			}
			var v any
			if err := json.Unmarshal(vals[i], &v); err != nil {
				return Meta{}, kvs, err
			}
			s, ok := v.(string)
			if !ok {
				return Meta{}, kvs, fmt.Errorf("expected value for key %q to be a string, got %t: %v", want, v, v)
			}
			*dst[i] = s
		}
	}
	m.Blob = append(blob, '\n')
	return m, kvs, nil
}

// reencode is opm's round trip: decode into a map, encode without HTML escaping.
func reencode(raw []byte, fromYAML bool) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		msg := resolveUnmarshalErr(raw, err)
		if fromYAML {
			return nil, fmt.Errorf("error unmarshaling JSON: while decoding JSON: %s", msg)
		}
		return nil, errors.New(msg)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// resolveUnmarshalErr points at the offending byte of a type or syntax error as opm does.
func resolveUnmarshalErr(data []byte, err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return formatUnmarshalErr(data, te.Error(), te.Offset)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return formatUnmarshalErr(data, se.Error(), se.Offset)
	}
	return err.Error()
}

func formatUnmarshalErr(data []byte, msg string, offset int64) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s at offset %d (indicated by <==)\n", msg, offset)
	var pretty bytes.Buffer
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if json.Indent(&pretty, data, "", "    ") == nil {
		p := pretty.String()
		var po, oo int64
		for oo < offset && po < int64(len(p)) {
			if p[po] != '\n' && p[po] != ' ' {
				oo++
			}
			po++
		}
		sb.WriteString(p[:po] + " <== " + p[po:])
		return sb.String()
	}
	sb.WriteString(string(data[:offset]) + " <== " + string(data[offset:]))
	return sb.String()
}

// scanObject calls fn for each top-level key (unescaped) and raw value of a compact JSON object.
func scanObject(b []byte, fn func(key, val []byte)) error {
	_, err := scanObjectAt(b, 0, fn)
	return err
}

var errMalformed = errors.New("malformed JSON object")

// scanObjectAt is scanObject for the object starting at b[i]; it returns the index after it.
func scanObjectAt(b []byte, i int, fn func(key, val []byte)) (int, error) {
	if i >= len(b) || b[i] != '{' {
		return -1, errMalformed
	}
	i++
	for i < len(b) && b[i] != '}' {
		if b[i] == ',' {
			i++
		}
		ke := codec.SkipValue(b, i)
		if ke < 0 || b[i] != '"' || ke >= len(b) || b[ke] != ':' {
			return -1, errMalformed
		}
		key := b[i+1 : ke-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if err := json.Unmarshal(b[i:ke], &k); err != nil {
				return -1, err
			}
			key = []byte(k)
		}
		ve := codec.SkipValue(b, ke+1)
		if ve < 0 {
			return -1, errMalformed
		}
		fn(key, b[ke+1:ve])
		i = ve
	}
	if i >= len(b) {
		return -1, errMalformed
	}
	return i + 1, nil
}
