package synth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteCached: the first call writes, the second reuses the folder (same Result, no rewrite),
// an incomplete folder is written again, and another config gets another folder.
func TestWriteCached(t *testing.T) {
	cache := t.TempDir()
	cfg := Config{Seed: 7, Bundles: 6, VersionsPerPackage: 3, MaxCRDs: 2}
	first, err := WriteCached(cache, cfg)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(first.CatalogDir)
	want := treeHash(t, root)
	stamp := filepath.Join(root, "stamp")
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := WriteCached(cache, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("second call (-first +second):\n%s", diff)
	}
	if _, err := os.Stat(stamp); err != nil {
		t.Errorf("second call rewrote the cached catalog: %v", err)
	}
	if err := os.Remove(filepath.Join(root, completeMarker)); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteCached(cache, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stamp); err == nil {
		t.Error("an incomplete cached catalog was reused")
	}
	got := treeHash(t, root)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rewritten catalog differs (-first +rewritten):\n%s", diff)
	}
	other, err := WriteCached(cache, Config{Seed: 8, Bundles: 6, VersionsPerPackage: 3, MaxCRDs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(other.CatalogDir) == root {
		t.Error("another seed got the same cached folder")
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("cache holds %d entries, want 2 (no temporary folders left)", len(entries))
	}
}
