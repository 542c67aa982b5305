package bundle

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/benchutil"
)

// BenchmarkGenerateWithKustomize measures `opack generate bundle` on the go/v4 sample including the
// in-process kustomize build of config/manifests (check mode: everything but the final write), the
// work `kustomize build config/manifests | operator-sdk generate bundle` does.
func BenchmarkGenerateWithKustomize(b *testing.B) {
	sample := sampleDir("memcached-operator")
	out := b.TempDir()
	b.ReportAllocs()
	defer benchutil.Measure(b)()
	for b.Loop() {
		_, err := Generate(context.Background(), Options{Package: "memcached-operator", Version: "0.0.1", ProjectDir: sample,
			KustomizeDir: filepath.Join(sample, "config", "manifests"), OutputDir: filepath.Join(out, "bundle"),
			Dockerfile: filepath.Join(out, "bundle.Dockerfile"), Mode: ModeCheck, SourceDateEpoch: "0"})
		if err != nil {
			b.Fatal(err)
		}
	}
}
