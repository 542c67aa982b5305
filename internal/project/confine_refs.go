package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/rootfs"
)

// confinedRefs refuses a bundle reference of a catalog template that would make the render read
// from disk outside the project: a folder (relative to the template's folder, or to the working
// folder) or an image on disk (oci:DIR, docker-archive:FILE) must lie inside the project, symlinks
// resolved. A template is repository content: "../../secrets" or "/etc" would copy what they hold
// into the catalog. Registry references pass through.
func confinedRefs(root, base string, next template.BundleRenderer) template.BundleRenderer {
	return func(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error) {
		var paths []string
		if !filepath.IsAbs(ref) && !strings.Contains(ref, ":") {
			if _, err := os.Lstat(filepath.Join(base, ref)); err == nil {
				paths = append(paths, filepath.Join(base, ref))
			}
		}
		if src, err := image.ParseSource(ref); err == nil && src.Kind != image.SourceRegistry {
			paths = append(paths, src.Path)
		}
		for _, p := range paths {
			rel, err := rootfs.Rel(root, p)
			if err == nil {
				_, err = rootfs.Resolve(root, rel)
			}
			if err != nil {
				return nil, fmt.Errorf("rendering bundle %q: it names %s, outside the project: a catalog template may name registry images and bundle folders or image layouts inside the project only", ref, p)
			}
		}
		return next(ctx, ref)
	}
}
