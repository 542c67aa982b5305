// Package catalogtest holds the test helpers the catalog packages share: reading fixtures and
// writing catalogs to strings for comparison with opm's expected files.
package catalogtest

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/opack/opack/internal/fbc"
)

// ReadFile returns the contents of path, or fails t.
func ReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// LoadDir loads the catalog folder dir, or fails t.
func LoadDir(t *testing.T, dir string) *fbc.DeclarativeConfig {
	t.Helper()
	cfg, err := fbc.LoadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// WriteString writes cfg in format (json or yaml), or fails t.
func WriteString(t *testing.T, cfg *fbc.DeclarativeConfig, format string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := fbc.Write(*cfg, format, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// Renderer renders references to a catalog (render.Renderer).
type Renderer interface {
	Render(ctx context.Context, refs ...string) (*fbc.DeclarativeConfig, error)
}

// RenderToString renders refs with r and writes the result as YAML (yaml) or JSON, or fails t.
func RenderToString(t *testing.T, r Renderer, yaml bool, refs ...string) string {
	t.Helper()
	cfg, err := r.Render(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	format := "json"
	if yaml {
		format = "yaml"
	}
	return WriteString(t, cfg, format)
}

// CopyTree copies the regular files below src into dst, or fails t.
func CopyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
