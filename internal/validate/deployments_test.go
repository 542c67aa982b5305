package validate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestNoDeployments: a CSV whose install strategy lists no deployments is an error; operator-sdk's checks
// pass it, and OLM would install nothing.
func TestNoDeployments(t *testing.T) {
	const csvName = "memcached-operator.clusterserviceversion.yaml"
	tests := []struct {
		name string
		edit func(obj map[string]any)
		want []string
	}{
		{"deployments listed", func(map[string]any) {}, nil},
		{"empty list", func(obj map[string]any) {
			if err := unstructured.SetNestedSlice(obj, []any{}, "spec", "install", "spec", "deployments"); err != nil {
				t.Fatal(err)
			}
		}, []string{"error manifests/" + csvName + " ClusterServiceVersion memcached-operator.v0.0.1"}},
		{"no list", func(obj map[string]any) {
			unstructured.RemoveNestedField(obj, "spec", "install", "spec", "deployments")
		}, []string{"error manifests/" + csvName + " ClusterServiceVersion memcached-operator.v0.0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, goSample)
			path := filepath.Join(dir, "manifests", csvName)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]any
			if err := sigsyaml.Unmarshal(raw, &obj); err != nil {
				t.Fatal(err)
			}
			tt.edit(obj)
			if raw, err = sigsyaml.Marshal(obj); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			report, err := Bundles(context.Background(), []string{dir})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range report.Findings {
				if f.Rule == RuleNoDeployments {
					rel, _ := filepath.Rel(dir, f.File)
					got = append(got, string(f.Severity)+" "+rel+" "+f.Object)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
