package servecache

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuild: building opm's serve cache of a small catalog (the corpus-scale figure comes from
// BenchmarkBuildCorpus when ../shared is there).
func BenchmarkBuild(b *testing.B) { benchBuild(b, fbcDirs[0]) }

func BenchmarkBuildCorpus(b *testing.B) {
	dir := "../../../shared/corpus/fbc/certified-operators-v4.22"
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("SKIP: %s not found: %v", dir, err)
	}
	benchBuild(b, dir)
}

func benchBuild(b *testing.B, dir string) {
	fbc := os.DirFS(dir)
	for b.Loop() {
		if err := Build(b.Context(), fbc, filepath.Join(b.TempDir(), "cache")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck: what `opm serve` does at start-up with a pre-built cache (integrity check and load).
func BenchmarkCheck(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "cache")
	fbc := os.DirFS(fbcDirs[0])
	if err := Build(b.Context(), fbc, dir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Check(b.Context(), fbc, dir); err != nil {
			b.Fatal(err)
		}
	}
}
