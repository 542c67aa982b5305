package servecache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/operator-framework/operator-registry/pkg/cache"
)

// Dir is where opm's standard catalog image keeps its serve cache (`opm serve /configs
// --cache-dir=/tmp/cache`), and where OLM v0's extractContent.cacheDir points.
const Dir = "/tmp/cache"

// Format is the cache format Build writes.
const Format = cache.FormatJSON

// Build writes the serve cache of the catalog fbc into dir, which must not exist or be empty, and
// checks it as `opm serve` does with integrity enforced. fbc must present the catalog exactly as the
// server will read it (names, sizes and permission bits reach the digest).
func Build(ctx context.Context, fbc fs.FS, dir string) error {
	if err := ensureEmpty(dir); err != nil {
		return err
	}
	c, err := cache.New(dir, cache.WithFormat(Format))
	if err != nil {
		return fmt.Errorf("opening serve cache %s: %w", dir, err)
	}
	if err := c.Build(ctx, fbc); err != nil {
		_ = c.Close()
		return fmt.Errorf("building serve cache: %w", err)
	}
	if err := c.Close(); err != nil {
		return fmt.Errorf("closing serve cache: %w", err)
	}
	return Check(ctx, fbc, dir)
}

// Check opens the cache in dir as `opm serve --cache-dir` does and verifies that it matches fbc
// and loads.
func Check(ctx context.Context, fbc fs.FS, dir string) error {
	c, err := cache.New(dir)
	if err != nil {
		return fmt.Errorf("opening serve cache %s: %w", dir, err)
	}
	defer c.Close()
	if err := c.CheckIntegrity(ctx, fbc); err != nil {
		return fmt.Errorf("checking serve cache %s: %w", dir, err)
	}
	if err := c.Load(ctx); err != nil {
		return fmt.Errorf("loading serve cache %s: %w", dir, err)
	}
	return nil
}

func ensureEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(filepath.Dir(dir), 0o755)
	case err != nil:
		return fmt.Errorf("reading serve cache folder: %w", err)
	case len(entries) > 0:
		return fmt.Errorf("building serve cache: %s is not empty", dir)
	}
	return nil
}
