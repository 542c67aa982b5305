package load

import "testing"

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
			if got := RawKey([]byte(tc.a)) == RawKey([]byte(tc.b)); got != tc.equal {
				t.Errorf("RawKey(%s) == RawKey(%s) is %v (%q, %q), want %v", tc.a, tc.b, got, RawKey([]byte(tc.a)), RawKey([]byte(tc.b)), tc.equal)
			}
		})
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
			t.Errorf("RawKey(%q): fast path %q, decoding %q", raw, got, slow)
		}
	})
}
