package render

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/synth"
)

// BenchmarkSynthRenderToAddOne is BenchmarkSynthRenderAddOne through RenderTo, the path of
// `opack catalog render`: the cached bundles are copied from the cache to the output, not
// decoded. Compare it with BenchmarkSynthRenderTo of the same size (the target: under 5%).
func BenchmarkSynthRenderToAddOne(b *testing.B) { benchAddOne(b, renderSynthTo) }

// BenchmarkSynthRenderTo renders every synthetic bundle folder through RenderTo without a cache.
func BenchmarkSynthRenderTo(b *testing.B) {
	forSynthSizes(b, func(b *testing.B, res *synth.Result) {
		if err := renderSynthTo("", res.BundleDirs); err != nil {
			b.Fatal(err)
		}
	})
}

// renderSynthTo renders dirs to the output as `opack catalog render` does (RenderTo, discarded).
func renderSynthTo(cacheDir string, dirs []string) error {
	r, err := synthRenderer(cacheDir)
	if err != nil {
		return err
	}
	return r.RenderTo(context.Background(), io.Discard, "json", dirs...)
}

// BenchmarkRenderBundleDirs renders the 11 golden bundles without a cache, with a cold
// cache (render and store) and with a warm one (stat index and entry headers only).
func BenchmarkRenderBundleDirs(b *testing.B) {
	names, err := os.ReadDir(renderBundlesDir)
	if err != nil {
		b.Fatal(err)
	}
	var refs []string
	for _, n := range names {
		refs = append(refs, filepath.Join(renderBundlesDir, n.Name()))
	}
	run := func(b *testing.B, cacheDir func() string) {
		for b.Loop() {
			opts := []RenderOption{WithImageRefTemplate(goldenImageRefTpl)}
			if cacheDir != nil {
				c, err := NewRenderCache(cacheDir())
				if err != nil {
					b.Fatal(err)
				}
				opts = append(opts, WithRenderCache(c))
			}
			r, err := NewRenderer(opts...)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Render(context.Background(), refs...); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("no-cache", func(b *testing.B) { run(b, nil) })
	b.Run("cold-cache", func(b *testing.B) { run(b, func() string { return b.TempDir() }) })
	warm := b.TempDir()
	b.Run("warm-cache", func(b *testing.B) { run(b, func() string { return warm }) })
}
