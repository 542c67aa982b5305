package fbc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// NotCatalogDir explains a folder that failed to load as a catalog because it is a bundle
// folder or a folder of bundle folders; nil when it is neither.
func NotCatalogDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	if IsBundleDir(entries) {
		return fmt.Errorf("%s is a bundle folder (manifests/ and metadata/), not a file-based catalog; render it into one with `opack catalog render %s`", dir, dir)
	}
	var bundles []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err == nil && IsBundleDir(sub) {
			bundles = append(bundles, e.Name())
		}
	}
	if len(bundles) == 0 {
		return nil
	}
	shown := bundles
	if len(shown) > 3 {
		shown = append(shown[:3:3], "...")
	}
	glob := strings.TrimSuffix(dir, "/") + "/*/"
	return fmt.Errorf("%s is a folder of bundles (%s), not a file-based catalog; render them into one with `opack catalog render %s`", dir, strings.Join(shown, ", "), glob)
}

// empty reports whether cfg holds no catalog objects at all.
func (c *DeclarativeConfig) empty() bool {
	return len(c.Packages) == 0 && len(c.Channels) == 0 && len(c.Bundles) == 0 && len(c.Deprecations) == 0 && len(c.Others) == 0
}

func IsBundleDir(entries []os.DirEntry) bool {
	var manifests, metadata bool
	for _, e := range entries {
		if e.IsDir() {
			manifests = manifests || e.Name() == "manifests"
			metadata = metadata || e.Name() == "metadata"
		}
	}
	return manifests && metadata
}
