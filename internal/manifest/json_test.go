package manifest

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sameJSONAsEncodingJSON fails t when MarshalJSON writes v differently from json.Marshal.
func sameJSONAsEncodingJSON(t *testing.T, v interface{}) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	got, err := MarshalJSON(v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("MarshalJSON error %v, json.Marshal error %v", err, wantErr)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("MarshalJSON differs from json.Marshal (-json.Marshal +MarshalJSON):\n%s", diff)
	}
}

func TestMarshalJSONSameAsEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		v    interface{}
	}{
		{"scalars", map[string]interface{}{"s": "x", "i": int64(-42), "b": true, "n": nil, "f": 1.5}},
		{"key order", map[string]interface{}{"b": 1.0, "a": int64(2), "B": "3", "é": "4", "": "5"}},
		{"floats", []interface{}{0.0, math.Copysign(0, -1), 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64}},
		{"escapes", []interface{}{"a\"b\\c", "<script>&</script>", "\b\f\n\r\t\x00\x01\x1f\x7f", "\u2028\u2029", "é😀", "bad\xffutf8\xc3", ""}},
		{"nested", map[string]interface{}{"a": []interface{}{map[string]interface{}{}, []interface{}{}, nil}, "m": map[string]interface{}{"x": []interface{}{int64(1)}}}},
		{"empty", map[string]interface{}{}},
		{"other types", map[string]interface{}{"i": 3, "u": uint8(2)}},
		{"typed nils", map[string]interface{}{"m": map[string]interface{}(nil), "s": []interface{}(nil)}},
		{"nil map", map[string]interface{}(nil)},
		{"nan", []interface{}{math.NaN()}},
		{"infinity", []interface{}{math.Inf(-1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameJSONAsEncodingJSON(t, tt.v)
		})
	}
}

func TestMayLoseNumbers(t *testing.T) {
	tests := []struct {
		doc  string
		want bool
	}{
		{"a: 1\nb: -1\nc: 1.5\nd: 2020-01-01\ne: v1-0\nf: a-.b\n", false},
		{"a: 1234567890123456789\n", true},
		{"a: 123456789012345678\n", false},
		{"a: -0.0\n", true},
		{"a: [-.5]\n", true},
		{"a: {b: -0}\n", true},
		{"- -0e1\n", true},
		{"a: 0xFFFFFFFFFFFFFFFF\n", true},
		{"a: 0xFFFFFFFFFFFFFFF\n", false},
		{"a: -0 # comment\n", true},
		{"a: -0", true},
		{"a: [-0, 1]\n", true},
		{"a: -.inf\n", true},
		{"symbols: '!#$%&()*+,-.<=>?@[]^_{}~'\n", false},
		{"a: \"x,-0/y\"\n", false},
		{"image: quay.io/x@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.doc, func(t *testing.T) {
			if got := MayLoseNumbers([]byte(tt.doc)); got != tt.want {
				t.Errorf("MayLoseNumbers = %v, want %v", got, tt.want)
			}
		})
	}
}
