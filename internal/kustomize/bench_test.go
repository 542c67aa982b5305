package kustomize

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/benchutil"
)

// BenchmarkBuildSample builds config/manifests of the go/v4 memcached sample in-process (what
// `kustomize build config/manifests` does).
func BenchmarkBuildSample(b *testing.B) {
	dir := filepath.Join("..", "..", "testdata", "operator-sdk", "memcached-operator", "config", "manifests")
	b.ReportAllocs()
	defer benchutil.Measure(b)()
	for b.Loop() {
		_, err := Build(context.Background(), dir)
		if err != nil {
			b.Fatal(err)
		}
	}
}
