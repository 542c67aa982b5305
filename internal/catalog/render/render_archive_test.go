package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/image"
)

// TestRenderArchiveImageName renders a bundle image from a docker-save tarball: the bundle's
// image is the reference the tarball records (or names), as for an OCI layout.
func TestRenderArchiveImageName(t *testing.T) {
	dir := filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1")
	file := filepath.Join(t.TempDir(), "bundle.tar")
	p, err := image.NewTarballPublisher(file, "quay.io/example/foo-bundle:v0.3.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := image.PublishBundle(t.Context(), dir, p, image.WithFormat(image.FormatDocker)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, ref, want string }{
		{"recorded tag", image.ArchivePrefix + file, "quay.io/example/foo-bundle:v0.3.1"},
		{"named tag", image.ArchivePrefix + file + ":quay.io/example/foo-bundle:v0.3.1", "quay.io/example/foo-bundle:v0.3.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			r, err := NewRenderer(WithPuller(image.NewPuller()), WithRenderLog(&log))
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := r.Render(t.Context(), tc.ref)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, cfg.Bundles[0].Image); diff != "" {
				t.Errorf("bundle image (-want +got):\n%s", diff)
			}
			if log.Len() != 0 {
				t.Errorf("unexpected log: %s", log.String())
			}
		})
	}
}
