package apitypes

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// BenchmarkApply reads operator-sdk's Go API fixtures (go list included) and builds the owned CRD
// descriptions; `make bench` runs it (figures in docs/performance.md once measured on an idle machine).
func BenchmarkApply(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "sdk-go")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "sdk-go"))); err != nil {
		b.Fatal(err)
	}
	b.Setenv("GOPROXY", "off")
	b.Setenv("GOMODCACHE", b.TempDir())
	gvks := []schema.GroupVersionKind{
		{Group: "cache.example.com", Version: "v1alpha1", Kind: "Memcached"},
		{Group: "cache.example.com", Version: "v1alpha2", Kind: "Memcached"},
		{Group: "cache.example.com", Version: "v1alpha2", Kind: "Dummy"},
	}
	for b.Loop() {
		csv := &v1alpha1.ClusterServiceVersion{}
		if _, err := Apply(context.Background(), csv, Options{Dir: dir, APIsDir: "api", GVKs: gvks}); err != nil {
			b.Fatal(err)
		}
		if len(csv.Spec.CustomResourceDefinitions.Owned) != 3 {
			b.Fatalf("%d owned descriptions, want 3", len(csv.Spec.CustomResourceDefinitions.Owned))
		}
	}
}
