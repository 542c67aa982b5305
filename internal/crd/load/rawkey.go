package load

import (
	"bytes"
	"encoding/json"
)

// RawKey returns a canonical form of a JSON value, the same for equal values however they are
// written: spacing, key order, string escapes (a CRD from a folder is re-encoded with "\u003c"
// where a catalog's bundle object may hold "<") and number forms (1, 1.0, 1e0). Integers that a
// float64 cannot hold keep their digits. Invalid JSON is kept as written.
func RawKey(raw []byte) string {
	if canonicalScalar(raw) {
		return string(raw)
	}
	return rawKeySlow(raw)
}

func rawKeySlow(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(canonNumbers(v)) != nil {
		return string(raw)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// canonicalScalar reports whether raw is already in RawKey's form: a string of printable ASCII
// without escapes, a small integer without leading zeros, true, false or null. Enum values are
// almost always one of these, and decoding them cost more than the whole schema walk.
func canonicalScalar(raw []byte) bool {
	switch {
	case len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"':
		for _, c := range raw[1 : len(raw)-1] {
			if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	case string(raw) == "true" || string(raw) == "false" || string(raw) == "null":
		return true
	}
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) || string(raw) == "-0" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// canonNumbers replaces the json.Numbers of v by float64, except integers beyond 2^53.
func canonNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil && (i > 1<<53 || i < -(1<<53)) {
			return t
		}
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t
	case map[string]any:
		for k, e := range t {
			t[k] = canonNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = canonNumbers(e)
		}
	}
	return v
}

// JSONEqual compares two JSON values semantically (see RawKey).
func JSONEqual(a, b []byte) bool { return bytes.Equal(a, b) || RawKey(a) == RawKey(b) }
