package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	yamlv2 "go.yaml.in/yaml/v2"
)

// roundTrip is the conversion yamlToObject replaces: YAML to JSON text, then utiljson.
func roundTrip(raw []byte) (interface{}, error) {
	var obj interface{}
	if err := yamlv2.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	return viaJSON(obj)
}

var yamlObjectCases = []string{
	"kind: A\nn: 3\nf: 3.5\ni: 1.0\nneg: -0.0\nbig: 18446744073709551615\nhuge: 1e300\nexp: 1e21\nlt: 9.9e20\n",
	"a: yes\nb: off\nc: ~\nd: 2001-12-14t21:59:43.10-05:00\ne: 0x1F\nf: 0o17\ng: 1_000\n",
	"8: a\ntrue: b\n1.5: c\nlist: [1, 2.0, '3', {x: y}]\n",
	"nan: .nan\n",
	"inf: -.inf\n",
	"bad: \"\\xff\"\n",
	"? [a]\n: b\n",
	"8: a\n08: b\n",
	"min: -9223372036854775808\nover: 9223372036854775808\nfmin: -9.223372036854775808e18\nfmax: 9.223372036854775807e18\n",
	"bin: !!binary aGVsbG8=\n",
}

// TestYAMLToObjectMatchesRoundTrip: the direct conversion gives what the JSON round trip gives.
func TestYAMLToObjectMatchesRoundTrip(t *testing.T) {
	for _, c := range yamlObjectCases {
		t.Run(c, func(t *testing.T) { checkSameAsRoundTrip(t, []byte(c)) })
	}
}

func checkSameAsRoundTrip(t *testing.T, raw []byte) {
	t.Helper()
	want, wantErr := roundTrip(raw)
	got, gotErr := yamlToObject(raw, DefaultMaxAliasNode)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("error = %v, the round trip's = %v", gotErr, wantErr)
	}
	if wantErr != nil {
		if gotErr.Error() != wantErr.Error() {
			t.Fatalf("error = %q, the round trip's = %q", gotErr, wantErr)
		}
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("direct conversion differs from the JSON round trip (-want +got):\n%s", d)
	}
}

// FuzzYAMLToObject is the differential fuzz test of the direct conversion against the JSON round trip.
func FuzzYAMLToObject(f *testing.F) {
	addFuzzSeeds(f)
	for _, c := range yamlObjectCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<16 || checkAliases(raw, fuzzAliasLimit) != nil {
			return
		}
		checkSameAsRoundTrip(t, raw)
	})
}
