package fbc

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
)

// bundleObjectData returns the decoded data of an olm.bundle.object property value: what
// json.Unmarshal into a BundleObject gives, and its error. Catalogs write the value as
// {"data":"<base64>"}; that form is decoded directly (encoding/json would scan the base64 string
// twice, to validate then to unquote, before decoding it: a fifth of catalog validate's time on
// catalogs that embed their bundles). Anything else goes through encoding/json.
func bundleObjectData(value []byte) ([]byte, error) {
	if data, ok := plainBundleObject(value); ok {
		return data, nil
	}
	var bo BundleObject
	err := json.Unmarshal(value, &bo)
	return bo.Data, err
}

// plainBundleObject decodes value when it is exactly {"data":"<base64>"} (whitespace
// around it allowed, as encoding/json allows) and the base64 is valid; ok is false otherwise.
func plainBundleObject(value []byte) (data []byte, ok bool) {
	const prefix, suffix = `{"data":"`, `"}`
	v := bytes.Trim(value, " \t\r\n") // JSON's whitespace
	if !bytes.HasPrefix(v, []byte(prefix)) || !bytes.HasSuffix(v, []byte(suffix)) || len(v) < len(prefix)+len(suffix) {
		return nil, false
	}
	s := v[len(prefix) : len(v)-len(suffix)]
	// The base64 decoder refuses every byte outside its alphabet (a quote, a backslash, a control
	// character: what would make this string not the plain JSON string assumed) except CR and LF,
	// which it skips and JSON does not allow raw in a string.
	if bytes.IndexByte(s, '\n') >= 0 || bytes.IndexByte(s, '\r') >= 0 {
		return nil, false
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, s)
	if err != nil {
		return nil, false
	}
	return out[:n], true
}
