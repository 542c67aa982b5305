package catalog

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/opack/opack/internal/fuzzseed"
)

// fbcSeeds are real file-based catalogs and catalog templates.
var fbcSeeds = []string{
	"testdata/opm/fbc-dir-example/*.yaml",
	"testdata/opm/fbc-list-index/*/*.yaml",
	"testdata/opm/declcfg-load-validFS/*",
	"testdata/opm/validate-cases/*/catalog/*.json",
	"testdata/opm/templates/*/template.yaml",
}

// FuzzFastYAML: whenever the fast YAML path accepts a document, its JSON is exactly what
// sigs.k8s.io/yaml and opm's re-encoding produce (the fast path's contract).
func FuzzFastYAML(f *testing.F) {
	fuzzseed.Add(f, fbcSeeds...)
	for _, s := range []string{"a: 'q''s'\nb: |\n  x\n\n", "a: 0x1F\nb: 1_000\nc: 2001-12-14\n", "z:\n- a: 1\n  b:\n  - c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := fastYAMLToJSON(doc)
		if err != nil {
			return
		}
		want, ok := slowCanonical(t, doc)
		if !ok {
			t.Fatalf("fast path accepted %q as %s; sigs.k8s.io/yaml refuses it", doc, got)
		}
		if want != string(got) {
			t.Fatalf("fast path on %q:\n got %s\nwant %s", doc, got, want)
		}
	})
}

// FuzzLoadFBC: loading any stream never panics; a loaded catalog validates without panicking,
// and writing it as JSON and loading that again gives the same JSON.
func FuzzLoadFBC(f *testing.F) {
	fuzzseed.Add(f, fbcSeeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := LoadReader(bytes.NewReader(data), "fuzz.yaml")
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) && err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		_ = Validate(context.Background(), cfg)
		var first bytes.Buffer
		if err := WriteJSON(*cfg, &first); err != nil {
			return
		}
		again, err := LoadReader(bytes.NewReader(first.Bytes()), "again.json")
		if err != nil {
			t.Fatalf("loading the written catalog failed: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := WriteJSON(*again, &second); err != nil {
			t.Fatalf("writing the reloaded catalog failed: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("write/load/write is not stable:\n%s\n----\n%s", first.Bytes(), second.Bytes())
		}
	})
}

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
