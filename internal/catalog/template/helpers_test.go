package template

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/fbc"
)

// renderBundlesDir holds opm's registry+v1 bundle fixtures.
const renderBundlesDir = "../../../testdata/opm/bundles-registry-v1"

// renderToString renders refs with r and writes the result as JSON or YAML.
func renderToString(t *testing.T, r *render.Renderer, yaml bool, refs ...string) string {
	t.Helper()
	cfg, err := r.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	write := fbc.WriteJSON
	if yaml {
		write = fbc.WriteYAML
	}
	if err := write(*cfg, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// copyTree copies the regular files below src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
