package check

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/fbc"
)

// TestLoadImage builds a catalog image of a golden FBC into an OCI layout (no daemon, no
// network) and loads it back through the image's configs label.
func TestLoadImage(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(opmTestdata, "fbc-index-declcfgs", "latest")
	layout := t.TempDir()
	p, err := image.NewLayoutPublisher(layout, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := image.PublishCatalog(ctx, dir, p); err != nil {
		t.Fatal(err)
	}
	got, err := fbc.LoadRef(ctx, image.LayoutPrefix+layout+":v1", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := catalogtest.LoadDir(t, dir)
	if diff := cmp.Diff(catalogtest.WriteString(t, want, "json"), catalogtest.WriteString(t, got, "json")); diff != "" {
		t.Errorf("catalog from image differs (-want +got):\n%s", diff)
	}
	r, err := ValidateRef(ctx, image.LayoutPrefix+layout+":v1", nil, nil, WithChecks(CheckOPM))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("validate image:\n%s", text(r))
	}
}
