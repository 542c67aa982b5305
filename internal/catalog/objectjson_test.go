package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestObjectJSON: bundle objects read as opm reads them — JSON unchanged (exact big integers,
// escapes and key order), YAML converted.
func TestObjectJSON(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"JSON unchanged", `{"b":1,"a":{"maxLength":9223372036854775807,"enum":["\u003c=","<="]}}`, `{"b":1,"a":{"maxLength":9223372036854775807,"enum":["\u003c=","<="]}}`},
		{"JSON with leading space", " \n{\"kind\":\"ConfigMap\"}", " \n{\"kind\":\"ConfigMap\"}"},
		{"YAML converted", "kind: ConfigMap\napiVersion: v1\ndata:\n  size: 9223372036854775807\n", `{"apiVersion":"v1","data":{"size":9223372036854775807},"kind":"ConfigMap"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := objectJSON([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("objectJSON (-want +got):\n%s", diff)
			}
		})
	}
}
