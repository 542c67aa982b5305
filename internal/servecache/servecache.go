package servecache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/operator-framework/operator-registry/pkg/cache"
)

// Dir is where opm's standard catalog image keeps its serve cache (`opm serve /configs
// --cache-dir=/tmp/cache`), and where OLM v0's extractContent.cacheDir points.
const Dir = "/tmp/cache"

// Format is the cache format Build writes.
const Format = cache.FormatJSON

// Option configures Build.
type Option func(*options)

type options struct {
	tempDir string
}

// WithTempDir makes operator-registry's cache builder write its temporary file
// (opm-cache-build-*.json, which a killed process leaves behind) in dir, created if missing, instead
// of $TMPDIR. The library creates it with os.CreateTemp(""), so $TMPDIR points at dir while the cache
// builds: builds are serialized, and whatever else the process creates in os.TempDir() meanwhile
// lands in dir too. Give a folder the caller removes (and that is swept when the process dies).
func WithTempDir(dir string) Option { return func(o *options) { o.tempDir = dir } }

// tempMu serializes the builds that point $TMPDIR elsewhere, so that each restores the value it found.
var tempMu sync.Mutex

// Build writes the serve cache of the catalog fbc into dir, which must not exist or be empty, and
// checks it as `opm serve` does with integrity enforced. fbc must present the catalog exactly as the
// server will read it (names, sizes and permission bits reach the digest).
func Build(ctx context.Context, fbc fs.FS, dir string, opts ...Option) error {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := ensureEmpty(dir); err != nil {
		return err
	}
	c, err := cache.New(dir, cache.WithFormat(Format))
	if err != nil {
		return fmt.Errorf("opening serve cache %s: %w", dir, err)
	}
	if err := withTempDir(o.tempDir, func() error { return c.Build(ctx, fbc) }); err != nil {
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

// withTempDir runs fn with $TMPDIR set to dir (created if missing), and restores it; an empty dir
// runs fn as it is.
func withTempDir(dir string, fn func() error) error {
	if dir == "" {
		return fn()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating temporary folder: %w", err)
	}
	tempMu.Lock()
	defer tempMu.Unlock()
	old, had := os.LookupEnv("TMPDIR")
	if err := os.Setenv("TMPDIR", dir); err != nil {
		return fmt.Errorf("setting TMPDIR: %w", err)
	}
	defer func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	return fn()
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
