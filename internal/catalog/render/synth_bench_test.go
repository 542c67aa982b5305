package render

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/synth"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/fbc"
)

// synthSizes are the synthetic catalog sizes benchmarked, capped by OPACK_BENCH_SYNTH_MAX (make bench
// sets 10000, about 1 GB on disk at 10,000 bundles; a plain `go test -bench` stops at 100).
func synthSizes(b *testing.B) []int {
	limit := 100
	if s := os.Getenv("OPACK_BENCH_SYNTH_MAX"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			b.Fatalf("OPACK_BENCH_SYNTH_MAX=%q: %v", s, err)
		}
		limit = n
	}
	var sizes []int
	for _, n := range []int{100, 1000, 10000} {
		if n <= limit {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

// synthCatalog writes n synthetic bundles and their catalog into a temporary folder, or reuses them
// from $OPACK_BENCH_SYNTH_CACHE (outside the timer).
func synthCatalog(b *testing.B, n int) (*synth.Result, int64) {
	b.Helper()
	cfg := synth.Config{Seed: 7, Bundles: n}
	var res *synth.Result
	var err error
	if dir := os.Getenv("OPACK_BENCH_SYNTH_CACHE"); dir != "" {
		res, err = synth.WriteCached(dir, cfg) // shared by the benchmarks and runs (make bench SYNTH_CACHE=dir)
	} else {
		res, err = synth.Write(b.TempDir(), cfg)
	}
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	err = filepath.WalkDir(res.CatalogDir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, ierr := d.Info()
			if ierr != nil {
				return ierr
			}
			size += fi.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return res, size
}

// forSynthSizes runs bench once per synthetic catalog size; MB/s is over the catalog's bytes and
// "µs/bundle" shows whether the cost per bundle stays flat as the catalog grows.
func forSynthSizes(b *testing.B, bench func(b *testing.B, res *synth.Result)) {
	for _, n := range synthSizes(b) {
		b.Run(fmt.Sprintf("bundles=%d", n), func(b *testing.B) {
			res, size := synthCatalog(b, n)
			b.SetBytes(size)
			b.ReportAllocs()
			stop := benchutil.Measure(b)
			for b.Loop() {
				bench(b, res)
			}
			stop()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/bundle")
		})
	}
}

// BenchmarkSynthLoad loads the synthetic file-based catalog.
func BenchmarkSynthLoad(b *testing.B) {
	forSynthSizes(b, func(b *testing.B, res *synth.Result) {
		if _, err := fbc.LoadDir(context.Background(), res.CatalogDir); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSynthValidate loads and validates the synthetic catalog with every check group,
// including CRD upgrade safety on every edge (the CRDs come from olm.bundle.object properties).
func BenchmarkSynthValidate(b *testing.B) {
	forSynthSizes(b, func(b *testing.B, res *synth.Result) {
		if _, err := check.ValidateDir(context.Background(), res.CatalogDir, nil); err != nil {
			b.Fatal(err)
		}
	})
}

const synthImageRefTpl = "quay.io/synth/{{.Package}}-bundle:v{{.Version}}"

// BenchmarkSynthRender renders every synthetic bundle folder without a cache (opm render's work).
func BenchmarkSynthRender(b *testing.B) {
	forSynthSizes(b, func(b *testing.B, res *synth.Result) {
		if err := renderSynth("", res.BundleDirs); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSynthRenderAddOne renders every synthetic bundle folder through a render cache that holds
// all of them but the last: the cost of adding one bundle to a rendered catalog. Compare it with
// BenchmarkSynthRender of the same size (the target: under 5%).
func BenchmarkSynthRenderAddOne(b *testing.B) { benchAddOne(b, renderSynth) }

// synthRenderer is the renderer of the synthetic benchmarks, with a cache in cacheDir ("": none).
func synthRenderer(cacheDir string) (*Renderer, error) {
	opts := []RenderOption{WithImageRefTemplate(synthImageRefTpl)}
	if cacheDir != "" {
		c, err := NewRenderCache(cacheDir)
		if err != nil {
			return nil, err
		}
		opts = append(opts, WithRenderCache(c))
	}
	return NewRenderer(opts...)
}

// renderSynth renders dirs into the model (Render).
func renderSynth(cacheDir string, dirs []string) error {
	r, err := synthRenderer(cacheDir)
	if err != nil {
		return err
	}
	_, err = r.Render(context.Background(), dirs...)
	return err
}

// benchAddOne times render of every synthetic bundle folder through a cache warmed with all of
// them but the last, dropping what each run adds so that every run adds the same bundle.
func benchAddOne(b *testing.B, render func(cacheDir string, dirs []string) error) {
	for _, n := range synthSizes(b) {
		if n > 1000 {
			continue // the target is set at 1,000 bundles
		}
		b.Run(fmt.Sprintf("bundles=%d", n), func(b *testing.B) {
			res, _ := synthCatalog(b, n)
			cacheDir := b.TempDir()
			if err := render(cacheDir, res.BundleDirs[:n-1]); err != nil {
				b.Fatal(err)
			}
			warm := cacheFiles(b, cacheDir)
			b.ReportAllocs()
			defer benchutil.Measure(b)()
			for b.Loop() {
				b.StopTimer()
				for f := range cacheFiles(b, cacheDir) {
					if !warm[f] {
						if err := os.Remove(f); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StartTimer()
				if err := render(cacheDir, res.BundleDirs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func cacheFiles(b *testing.B, dir string) map[string]bool {
	files := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files[p] = true
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return files
}
