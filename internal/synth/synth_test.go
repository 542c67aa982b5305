package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/manifest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestWriteIsDeterministic(t *testing.T) {
	cfg := Config{Seed: 7, Bundles: 12, VersionsPerPackage: 5, MaxCRDs: 3}
	a, b := t.TempDir(), t.TempDir()
	ra, err := Write(a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, cfg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(treeHash(t, a), treeHash(t, b)); diff != "" {
		t.Errorf("two runs with the same config differ (-first +second):\n%s", diff)
	}
	if got := len(ra.BundleDirs); got != 12 {
		t.Errorf("len(BundleDirs) = %d, want 12", got)
	}
	if diff := cmp.Diff([]string{"synth-operator-0000", "synth-operator-0001", "synth-operator-0002"}, ra.Packages); diff != "" {
		t.Error(diff)
	}
	one := t.TempDir() // one worker: the parallel writer's bytes do not depend on the schedule
	prev := runtime.GOMAXPROCS(1)
	_, err = Write(one, cfg)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(treeHash(t, a), treeHash(t, one)); diff != "" {
		t.Errorf("one worker and %d differ (-parallel +one):\n%s", prev, diff)
	}
	c := t.TempDir()
	if _, err := Write(c, Config{Seed: 8, Bundles: 12, VersionsPerPackage: 5, MaxCRDs: 3}); err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(treeHash(t, a), treeHash(t, c)) {
		t.Error("a different seed gave the same tree")
	}
}

func TestWriteProducesDecodableObjects(t *testing.T) {
	root := t.TempDir()
	res, err := Write(root, Config{Seed: 1, Bundles: 3, VersionsPerPackage: 3, MaxCRDs: 2})
	if err != nil {
		t.Fatal(err)
	}
	last := res.BundleDirs[2]
	docs, err := manifest.ReadTree(filepath.Join(last, "manifests"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, d := range docs {
		kinds[d.Object.GetKind()]++
	}
	if kinds["ClusterServiceVersion"] != 1 || kinds["CustomResourceDefinition"] < 1 {
		t.Errorf("kinds in %s = %v, want one CSV and at least one CRD", last, kinds)
	}
	csv := docs[0]
	for _, d := range docs {
		if d.Object.GetKind() == "ClusterServiceVersion" {
			csv = d
		}
	}
	replaces, _, _ := unstructured.NestedString(csv.Object.Object, "spec", "replaces")
	if diff := cmp.Diff("synth-operator-0000.v1.1.0", replaces); diff != "" {
		t.Errorf("replaces: %s", diff)
	}
	cat, err := manifest.ReadTree(res.CatalogDir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(cat); got != 5 { // package, channel, 3 bundles
		t.Errorf("catalog documents = %d, want 5", got)
	}
}

func treeHash(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
