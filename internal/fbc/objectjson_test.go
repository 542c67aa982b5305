package fbc

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadBundleObjects: bundle objects are read as opm reads them — JSON unchanged (exact big
// integers, escapes and key order), YAML converted.
func TestReadBundleObjects(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"JSON unchanged", `{"b":1,"a":{"maxLength":9223372036854775807,"enum":["\u003c=","<="]}}`, `{"b":1,"a":{"maxLength":9223372036854775807,"enum":["\u003c=","<="]}}`},
		{"JSON with leading space", " \n{\"kind\":\"ConfigMap\"}", " \n{\"kind\":\"ConfigMap\"}"},
		{"YAML converted", "kind: ConfigMap\napiVersion: v1\ndata:\n  size: 9223372036854775807\n", `{"apiVersion":"v1","data":{"size":9223372036854775807},"kind":"ConfigMap"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			value, err := json.Marshal(BundleObject{Data: []byte(tc.in)})
			if err != nil {
				t.Fatal(err)
			}
			bundles := []Bundle{{Package: "p", Name: "p.v1", Properties: []Property{{Type: TypeBundleObject, Value: value}}}}
			if err := ReadBundleObjects(bundles); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{tc.want}, bundles[0].Objects); diff != "" {
				t.Errorf("Objects (-want +got):\n%s", diff)
			}
		})
	}
}
