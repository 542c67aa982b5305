package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// TestBuildSamples checks the in-process build against kustomize v5.6.0's output for each sample.
func TestBuildSamples(t *testing.T) {
	for _, sample := range []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"} {
		t.Run(sample, func(t *testing.T) {
			root := filepath.Join("..", "..", "testdata", "operator-sdk", sample)
			want, err := os.ReadFile(filepath.Join(root, "observed-v1.42.3", "kustomize-out.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Build(context.Background(), filepath.Join(root, "config", "manifests"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("build differs from kustomize v5.6.0 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	fs := filesys.MakeFsInMemory()
	if err := fs.WriteFile("/app/kustomization.yaml", []byte("resources:\n- missing.yaml\n")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dir, want string }{
		{"missing folder", "/nope", "building kustomization /nope"},
		{"missing resource", "/app", "missing.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildFS(context.Background(), fs, tc.dir, WithRoot("/"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
