package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/google/go-cmp/cmp"
)

// TestRenderCacheFolderChangedWhileRendered: a bundle folder that changes between taking its cache
// key and reading its files is rendered from what it holds now, and that render is not stored
// under the old content's key — when the old content comes back, it is rendered anew, not served
// the other content's render.
func TestRenderCacheFolderChangedWhileRendered(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "foo")
	catalogtest.CopyTree(t, filepath.Join(renderBundlesDir, "foo-bundle-v0.3.1"), dir)
	csv := filepath.Join(dir, "manifests", "foo.csv.yaml")
	contentA := catalogtest.ReadFile(t, csv)
	contentB := strings.Replace(contentA, "image: test.registry/foo-operator/foo:v0.3.1", "image: example.com/changed:1", 1)
	if contentB == contentA {
		t.Fatal("fixture changed: no related image to edit in foo.csv.yaml")
	}
	write := func(content string) {
		t.Helper()
		tmp := csv + ".tmp"
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, csv); err != nil {
			t.Fatal(err)
		}
	}
	wantA := writeRendered(t, "json", nil, dir)
	write(contentB)
	wantB := writeRendered(t, "json", nil, dir)
	write(contentA)
	time.Sleep(10 * time.Millisecond)

	for _, path := range []struct {
		name   string
		render func(r *Renderer) string
	}{
		{"Render", func(r *Renderer) string {
			cfg, err := r.Render(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			return catalogtest.WriteString(t, cfg, "json")
		}},
		{"RenderTo", func(r *Renderer) string { return renderToText(t, r, "json", dir) }},
	} {
		t.Run(path.name, func(t *testing.T) {
			write(contentA)
			cacheDir := t.TempDir()
			r := newCachedRenderer(t, cacheDir)
			r.beforeParse = func(string) { write(contentB) } // A's key taken, B's files read
			if diff := cmp.Diff(wantB, path.render(r)); diff != "" {
				t.Fatalf("render while the folder changed (-B +got):\n%s", diff)
			}
			write(contentA)
			r = newCachedRenderer(t, cacheDir)
			if diff := cmp.Diff(wantA, path.render(r)); diff != "" {
				t.Errorf("A again was served another render (-A +got):\n%s", diff)
			}
			if r.Rendered() != 1 {
				t.Errorf("A rendered %d times, want 1 (nothing stored under its key before)", r.Rendered())
			}
		})
	}
}
