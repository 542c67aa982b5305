package crd

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestRawKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  string
		equal bool
	}{
		{"escapes", `"\u003c="`, `"<="`, true},
		{"spacing and key order", `{"b": [1, 2], "a": "x"}`, `{"a":"x","b":[1,2]}`, true},
		{"number forms", `[1, 1.0, 1e0, -0.5]`, `[1,1,1,-5e-1]`, true},
		{"big integers keep their digits", `9223372036854775807`, `9223372036854775806`, false},
		{"big integer forms", `9223372036854775807`, `9223372036854775807`, true},
		{"different strings", `"a"`, `"b"`, false},
		{"string is not a number", `"1"`, `1`, false},
		{"invalid JSON kept as written", `{"a": }`, `{"a":}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rawKey([]byte(tc.a)) == rawKey([]byte(tc.b)); got != tc.equal {
				t.Errorf("rawKey(%s) == rawKey(%s) is %v (%q, %q), want %v", tc.a, tc.b, got, rawKey([]byte(tc.a)), rawKey([]byte(tc.b)), tc.equal)
			}
		})
	}
}

// TestCompareSameValuesWrittenDifferently: a CRD read from a bundle folder (re-encoded, "\u003c=")
// and the same CRD from a catalog's bundle object ("<=", 1.0) are the same CRD: no finding.
func TestCompareSameValuesWrittenDifferently(t *testing.T) {
	spec := func(enum []string, def string) apiextv1.JSONSchemaProps {
		p := apiextv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextv1.JSONSchemaProps{
			"op":    {Type: "string"},
			"limit": {Type: "number", Default: &apiextv1.JSON{Raw: []byte(def)}},
		}}
		op := p.Properties["op"]
		for _, e := range enum {
			op.Enum = append(op.Enum, apiextv1.JSON{Raw: []byte(e)})
		}
		p.Properties["op"] = op
		return p
	}
	old := testCRD(spec([]string{`"\u003c="`, `"\u003e="`, `"=="`}, `1`))
	new := testCRD(spec([]string{`"<="`, `">="`, `"=="`}, `1.0`))
	if diff := cmp.Diff([]ruleAt(nil), summarize(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{new}, WithAPIServerValidation(false)))); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	changed := testCRD(spec([]string{`"<="`, `"=="`}, `2`))
	got := summarize(Compare([]*apiextv1.CustomResourceDefinition{old}, []*apiextv1.CustomResourceDefinition{changed}, WithAPIServerValidation(false)))
	if len(got) != 2 {
		t.Errorf("a removed enum value and a changed default gave %v; want 2 findings", got)
	}
}

// FuzzRawKey: the scalar fast path gives what decoding and encoding gives.
func FuzzRawKey(f *testing.F) {
	for _, s := range []string{`"abc"`, `"\u003c="`, `12`, `-0`, `007`, `1.5`, `true`, `null`, `"é"`, `123456789012345678`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !canonicalScalar(raw) {
			return
		}
		slow := rawKeySlow(raw)
		if got := string(raw); got != slow {
			t.Errorf("rawKey(%q): fast path %q, decoding %q", raw, got, slow)
		}
	})
}
