package fbc

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeBundle(t *testing.T) {
	cases := map[string]string{
		"full":          `{"image":"i","name":"n","package":"p","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}},{"type":"x","value":null}],"relatedImages":[{"image":"a","name":""}],"schema":"olm.bundle"}`,
		"case folded":   `{"Image":"upper","image":"lower","schema":"olm.bundle"}`,
		"escapes":       `{"name":"a\"b\\c\u00e9","schema":"olm.bundle"}`,
		"empty arrays":  `{"properties":[],"relatedImages":[],"schema":"olm.bundle"}`,
		"nulls":         `{"image":null,"properties":null,"schema":"olm.bundle"}`,
		"unknown field": `{"extra":{"a":[1,2]},"schema":"olm.bundle"}`,
	}
	for name, blob := range cases {
		t.Run(name, func(t *testing.T) {
			var want Bundle
			if err := json.Unmarshal([]byte(blob), &want); err != nil {
				t.Fatal(err)
			}
			got, ok := decodeBundle([]byte(blob))
			if !ok {
				t.Fatal("fast decode refused a valid bundle")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, bad := range []string{`{"image":5,"schema":"olm.bundle"}`, `{"relatedImages":{},"schema":"olm.bundle"}`, `{"properties":[null],"schema":"olm.bundle"}`} {
		if _, ok := decodeBundle([]byte(bad)); ok {
			t.Errorf("fast decode accepted %s", bad)
		}
	}
}
