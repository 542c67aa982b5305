package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/servecache"
	"github.com/opack/opack/internal/stepcache"
	"github.com/opack/opack/internal/tmpdir"
)

// ServeCacheDir is where a catalog image holds opm's pre-built serve cache.
const ServeCacheDir = servecache.Dir

// The command of a catalog built on an opm base: opm's standard `serve /configs
// --cache-dir=/tmp/cache`, integrity enforced (opm's default with --cache-dir), against the cache the
// image holds; without a cache, opm builds one in a temporary folder at start-up.
var (
	opmEntrypoint = []string{"/bin/opm"}
	opmCmdCached  = []string{"serve", "/" + catalogDir, "--cache-dir=" + ServeCacheDir}
	opmCmdNoCache = []string{"serve", "/" + catalogDir}
)

// WithServeCache selects whether a catalog image carries opm's serve cache under /tmp/cache (default
// true).
func WithServeCache(on bool) Option { return func(o *options) { o.noServeCache = !on } }

// buildServeCache builds the serve cache of the catalog in dir, as the image will present it, into
// a new temporary folder; the caller removes it with tmpdir.Remove. It returns the folder and the cache tree of the layer.
// With a ServeCacheStore, a cache built before from the same catalog is unpacked instead.
func buildServeCache(ctx context.Context, dir string, store ServeCacheStore) (string, tree, error) {
	tmp, err := tmpdir.Make("serve-cache")
	if err != nil {
		return "", tree{}, fmt.Errorf("building serve cache: %w", err)
	}
	cache := filepath.Join(tmp, "cache")
	done := tree{src: cache, dst: strings.TrimPrefix(ServeCacheDir, "/"), keepModes: true}
	var key stepcache.Key
	if store != nil {
		if key, err = serveCacheKey(dir); err != nil {
			store = nil
		} else if data, ok := store.Get(key); ok {
			if err := unpackTree(data, cache); err == nil {
				return tmp, done, nil
			}
			os.RemoveAll(cache) // a bad entry: build it
		}
	}
	// operator-registry's builder writes a temporary copy of the catalog: here, in opack's locked
	// folder (swept when this process dies), not in $TMPDIR where a kill would leave it.
	if err := servecache.Build(ctx, newLayerFS(dir), cache, servecache.WithTempDir(filepath.Join(tmp, "tmp"))); err != nil {
		tmpdir.Remove(tmp)
		return "", tree{}, fmt.Errorf("building serve cache of %s (opm serve refuses this catalog, so no serve cache can be built: fix the catalog, or pass --no-serve-cache too): %w", dir, err)
	}
	if store != nil {
		if data, err := packTree(cache); err == nil {
			_ = store.Put(key, data)
		}
	}
	return tmp, done, nil
}
