package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/opack/opack/internal/manifest"
)

// renderCacheFormat versions the cache: bump it whenever rendering changes its output, so
// that entries written by an older opack are never served.
const renderCacheFormat = "opack-render-cache/v1"

// RenderCache stores rendered bundles by content: a bundle image by its digest, a bundle
// folder by a hash of its files. Entries are written atomically and carry a checksum; an
// entry that is missing, unreadable or corrupted is a miss and is rewritten.
type RenderCache struct {
	dir    string
	hits   atomic.Int64
	misses atomic.Int64
}

// DefaultRenderCacheDir is <user cache folder>/opack/render (os.UserCacheDir).
func DefaultRenderCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache folder: %w", err)
	}
	return filepath.Join(base, "opack", "render"), nil
}

// NewRenderCache returns a cache kept in dir ("" for DefaultRenderCacheDir).
func NewRenderCache(dir string) (*RenderCache, error) {
	if dir == "" {
		d, err := DefaultRenderCacheDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return &RenderCache{dir: dir}, nil
}

// Dir is the folder the cache lives in.
func (c *RenderCache) Dir() string { return c.dir }

// cachedEntry is the stored form of a rendered bundle, including what the FBC form omits.
type cachedEntry struct {
	Bundle  Bundle   `json:"bundle"`
	CsvJSON string   `json:"csvJSON,omitempty"`
	Objects []string `json:"objects,omitempty"`
}

func (c *RenderCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// get returns the bundle stored under key, or false.
func (c *RenderCache) get(key string) (*Bundle, bool) {
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	b, err := decodeCacheEntry(data)
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	return b, true
}

// put stores b under key.
func (c *RenderCache) put(key string, b *Bundle) error {
	// HTML escaping off: raw property values must come back byte for byte.
	var enc bytes.Buffer
	je := json.NewEncoder(&enc)
	je.SetEscapeHTML(false)
	if err := je.Encode(cachedEntry{Bundle: *b, CsvJSON: b.CsvJSON, Objects: b.Objects}); err != nil {
		return fmt.Errorf("encoding render cache entry: %w", err)
	}
	payload := enc.Bytes()
	sum := sha256.Sum256(payload)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%s %s\n", renderCacheFormat, hex.EncodeToString(sum[:]))
	buf.Write(payload)
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("writing render cache entry: %w", err)
	}
	if err := manifest.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing render cache entry: %w", err)
	}
	return nil
}

func decodeCacheEntry(data []byte) (*Bundle, error) {
	header, payload, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return nil, errors.New("truncated")
	}
	sum := sha256.Sum256(payload)
	if string(header) != renderCacheFormat+" "+hex.EncodeToString(sum[:]) {
		return nil, errors.New("checksum or format mismatch")
	}
	var e cachedEntry
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, err
	}
	b := e.Bundle
	b.CsvJSON, b.Objects = e.CsvJSON, e.Objects
	return &b, nil
}

// cacheKey hashes the parts that determine a rendered bundle.
func cacheKey(parts ...string) string {
	h := sha256.New()
	h.Write([]byte(renderCacheFormat))
	for _, p := range parts {
		fmt.Fprintf(h, "\x00%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashBundleDir hashes what opm reads of a bundle folder: the names and contents of the
// files directly in manifests/ and metadata/.
func hashBundleDir(dir string) (string, error) {
	h := sha256.New()
	for _, sub := range []string{"manifests", "metadata"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s\x00%d\x00", sub, e.Name(), len(data))
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cachedBundle returns the bundle stored under key, or renders it and stores it. An empty
// key or no cache renders without storing. Render counts every bundle actually rendered.
func (r *Renderer) cachedBundle(key string, render func() (*Bundle, error)) (*Bundle, error) {
	if r.cache != nil && key != "" {
		if b, ok := r.cache.get(key); ok {
			return b, nil
		}
	}
	r.rendered.Add(1)
	b, err := render()
	if err != nil {
		return nil, err
	}
	if r.cache != nil && key != "" {
		if err := r.cache.put(key, b); err != nil {
			fmt.Fprintf(r.warnings(), "warning: %v\n", err)
		}
	}
	return b, nil
}
