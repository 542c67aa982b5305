package template

import (
	"context"
	"testing"

	"github.com/opack/opack/internal/fuzzseed"
)

// FuzzRenderTemplate: rendering any basic or semver template with a fake bundle renderer never
// panics.
func FuzzRenderTemplate(f *testing.F) {
	fuzzseed.Add(f, "testdata/opm/templates/*/template.yaml")
	render := fakeTemplateRenderer(nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range []string{"", "basic", "semver"} {
			cfg, err := RenderTemplate(context.Background(), data, typ, render)
			if err == nil && cfg == nil {
				t.Fatalf("RenderTemplate(%q) returned neither a catalog nor an error", typ)
			}
		}
	})
}
