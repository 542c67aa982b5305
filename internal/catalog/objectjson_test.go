package catalog

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

var objectJSONSeeds = []string{
	`{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","spec":{"versions":[{"name":"v1","served":true}]}}`,
	`{"b":1.0,"a":[1e3,-0.5,"<&>",null,true,{"z":{},"y":[]}]}`,
	`{"n":12345678901234567890}`,
	`{"a":1,"a":2}`,
	"kind: ConfigMap\napiVersion: v1\ndata:\n  k: v\n",
	`{"esc\u0061ped":"\ud83d\ude00 \/"}`,
}

// TestObjectJSON: the fast path gives the JSON opm's YAML-to-JSON round trip gives (as values;
// the fast path does not HTML-escape), and refuses what it refuses.
func TestObjectJSON(t *testing.T) {
	for _, s := range objectJSONSeeds {
		t.Run(s, func(t *testing.T) { checkObjectJSON(t, []byte(s)) })
	}
}

func FuzzObjectJSON(f *testing.F) {
	for _, s := range objectJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkObjectJSON)
}

func checkObjectJSON(t *testing.T, data []byte) {
	if _, fast := canonJSON(data); !fast || !json.Valid(data) {
		return // objectJSON is YAMLToJSON itself (which is not even deterministic on colliding keys)
	}
	want, wantErr := yaml.YAMLToJSON(data)
	got, gotErr := objectJSON(data)
	if wantErr != nil {
		if gotErr == nil && !json.Valid(data) {
			t.Fatalf("objectJSON accepted %q that YAMLToJSON refuses: %v", data, wantErr)
		}
		return // valid JSON that YAML 1.1 cannot read: opack reads it as JSON
	}
	if gotErr != nil {
		t.Fatalf("objectJSON refused %q: %v", data, gotErr)
	}
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("objectJSON gave invalid JSON %q: %v", got, err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("objectJSON(%q) differs from YAMLToJSON (-want +got):\n%s", data, diff)
	}
}
