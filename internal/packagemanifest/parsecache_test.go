package packagemanifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleBundle = "../../testdata/validate/samples/memcached-operator/bundle"

func TestParseCacheShares(t *testing.T) {
	pc := &ParseCache{}
	first, err := LoadBundleDir(sampleBundle, pc)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadBundleDir(sampleBundle, pc)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Manifests.V1CRDs) == 0 {
		t.Fatal("sample bundle holds no v1 CRD")
	}
	if first.Manifests.V1CRDs[0] != second.Manifests.V1CRDs[0] {
		t.Error("the second bundle decoded its CRD again instead of sharing it")
	}
	if first.Manifests.V1CRDs[0].Spec.Conversion == nil {
		t.Error("shared CRD is not defaulted (spec.conversion unset)")
	}
	if err := pc.SharedUnchanged(); err != nil {
		t.Fatal(err)
	}
	first.Manifests.V1CRDs[0].Spec.Group = "written.example.com"
	if err := pc.SharedUnchanged(); err == nil || !strings.Contains(err.Error(), "was written to") {
		t.Errorf("SharedUnchanged after a write = %v, want an error naming the write", err)
	}
}

func TestParseCacheOneObjectPerFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(sampleBundle)); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifests", "cache.example.com_memcacheds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	twin := filepath.Join(dir, "manifests", "twin.yaml")
	if err := os.WriteFile(twin, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBundleDir(dir, &ParseCache{})
	if err != nil {
		t.Logf("load: %v", err)
	}
	seen := map[any]string{}
	for obj, file := range b.ObjFile {
		if other, ok := seen[obj]; ok {
			t.Errorf("%s and %s share one object", other, file)
		}
		seen[obj] = file
	}
	if crds := b.Manifests.V1CRDs; len(crds) != 2 || crds[0] == crds[1] {
		t.Errorf("want two CRD objects, one per file; got %d", len(crds))
	}
	if got, want := len(b.ObjFile), len(b.Manifests.Objects); got != want {
		t.Errorf("%d objects with a file, want %d (one per file)", got, want)
	}
}
