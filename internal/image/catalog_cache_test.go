package image

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/opack/opack/internal/servecache"
	"github.com/opack/opack/internal/stepcache"
	"github.com/opack/opack/internal/tmpdir"
)

// TestCatalogServeCacheLayer: the second layer holds opm's serve cache under tmp/cache, owned by
// 1001:0 with the modes opm wrote, and it is the cache of the catalog as the image presents it
// (checked as opm serve checks it, against the unpacked /configs).
func TestCatalogServeCacheLayer(t *testing.T) {
	img := catalogImage(t, catalogFBC)
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 {
		t.Fatalf("%d layers, want /configs and the serve cache", len(ls))
	}
	root := t.TempDir()
	var names []string
	for _, e := range layerEntries(t, ls[1]) {
		names = append(names, e.Name)
		owner := [2]int{e.UID, e.GID}
		switch {
		case e.Name == "tmp/":
			if e.Mode != 0o1777 || owner != [2]int{0, 0} {
				t.Errorf("tmp/: mode %o owner %v, want 1777 root", e.Mode, owner)
			}
			continue
		case owner != [2]int{cacheUID, 0}:
			t.Errorf("%s: owner %v, want %d:0", e.Name, owner, cacheUID)
		}
		p := filepath.Join(root, filepath.FromSlash(e.Name))
		if strings.HasSuffix(e.Name, "/") {
			if err := os.MkdirAll(p, os.FileMode(e.Mode)); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, []byte(e.Body), os.FileMode(e.Mode)); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, os.FileMode(e.Mode)); err != nil {
			t.Fatal(err)
		}
	}
	if !contains(names, "tmp/cache/digest") || !contains(names, "tmp/cache/cache/packages.json") {
		t.Errorf("cache layer entries %q lack the JSON cache's digest and packages.json", names)
	}
	if err := servecache.Check(t.Context(), newLayerFS(catalogFBC), filepath.Join(root, "tmp", "cache")); err != nil {
		t.Errorf("the image's cache is not the catalog's: %v", err)
	}
}

// TestCatalogReproducibleWithServeCache: the same FBC gives the same digest, cache included, whatever
// the modes and times of the files on disk.
func TestCatalogReproducibleWithServeCache(t *testing.T) {
	first := mustDigest(t, catalogImage(t, catalogFBC))
	moved := filepath.Join(t.TempDir(), "fbc")
	if err := os.CopyFS(moved, os.DirFS(catalogFBC)); err != nil {
		t.Fatal(err)
	}
	if err := filepath.Walk(moved, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return os.Chmod(p, 0o700)
		}
		return os.Chmod(p, 0o600)
	}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first, mustDigest(t, catalogImage(t, moved))); d != "" {
		t.Errorf("digest of the same catalog differs (-first +again):\n%s", d)
	}
	noCache, err := Catalog(t.Context(), catalogFBC, WithServeCache(false))
	if err != nil {
		t.Fatal(err)
	}
	if mustDigest(t, noCache) == first {
		t.Errorf("WithServeCache(false) gave the same image")
	}
}

// TestCorpusCatalogDigest builds certified-operators-v4.22 (../shared) twice: same digest.
func TestCorpusCatalogDigest(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus-scale test: run without -short")
	}
	fbc := "../../../shared/corpus/fbc/certified-operators-v4.22"
	if _, err := os.Stat(fbc); err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", fbc, err)
	}
	first, again := mustDigest(t, catalogImage(t, fbc)), mustDigest(t, catalogImage(t, fbc))
	if first != again {
		t.Errorf("two builds of %s: %s and %s", fbc, first, again)
	}
}

func catalogImage(t *testing.T, dir string) v1.Image {
	t.Helper()
	a, err := Catalog(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return a.(v1.Image)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestServeCacheTempFileInOpackFolder: operator-registry's builder writes its opm-cache-build-*.json
// inside opack's own temporary folder (locked, swept when the process dies), not in $TMPDIR: after a
// serve cache is built nothing of it is left in $TMPDIR, and once the folder is removed $TMPDIR is empty.
func TestServeCacheTempFileInOpackFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	work, _, err := buildServeCache(t.Context(), catalogFBC, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(tmp, work); err != nil || !strings.HasPrefix(rel, "opack-serve-cache-") {
		t.Errorf("serve cache built in %s, want a folder of opack in %s", work, tmp)
	}
	if fi, err := os.Stat(filepath.Join(work, "tmp")); err != nil || !fi.IsDir() {
		t.Errorf("the builder's temporary folder %s: %v", filepath.Join(work, "tmp"), err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "opm-cache-build-*")); len(left) > 0 {
		t.Errorf("left in $TMPDIR: %v", left)
	}
	tmpdir.Remove(work)
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("$TMPDIR holds %v after the folder was removed", entries)
	}
}

// countingStore is a stepcache.Cache that counts hits and stores.
type countingStore struct {
	c          *stepcache.Cache
	hits, puts int
}

func (s *countingStore) Get(k stepcache.Key) ([]byte, bool) {
	data, ok := s.c.Get(k)
	if ok {
		s.hits++
	}
	return data, ok
}

func (s *countingStore) Put(k stepcache.Key, data []byte) error { s.puts++; return s.c.Put(k, data) }

// TestServeCacheStore: a catalog image built with a serve cache kept in the step cache is the
// same image, byte for byte, as one built cold; the second build of an unchanged catalog takes
// the kept cache, a changed catalog builds its own, and a damaged entry is built again.
func TestServeCacheStore(t *testing.T) {
	c, err := stepcache.OpenDir(filepath.Join(t.TempDir(), "steps"))
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{c: c}
	digest := func(dir string, opts ...Option) string {
		t.Helper()
		a, err := Catalog(t.Context(), dir, opts...)
		if err != nil {
			t.Fatal(err)
		}
		h, err := a.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return h.String()
	}
	cold := digest(catalogFBC)
	if got := digest(catalogFBC, WithServeCacheStore(store)); got != cold || store.puts != 1 || store.hits != 0 {
		t.Fatalf("first build: %s (cold %s), %d stored, %d hits", got, cold, store.puts, store.hits)
	}
	if got := digest(catalogFBC, WithServeCacheStore(store)); got != cold || store.hits != 1 {
		t.Fatalf("second build: %s (cold %s), %d hits, want the kept cache", got, cold, store.hits)
	}
	// Damage every entry: the next build builds the cache again, the same.
	filepath.WalkDir(c.Dir(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			data[len(data)-1] ^= 0xff
			os.WriteFile(p, data, 0o600)
		}
		return nil
	})
	if got := digest(catalogFBC, WithServeCacheStore(store)); got != cold || store.hits != 1 || store.puts != 2 {
		t.Fatalf("after damage: %s (cold %s), %d hits, %d stored", got, cold, store.hits, store.puts)
	}
}
