package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/synth"
)

// catalogShapes are the catalogs whose cost their shape decides, at the sizes SECURITY.md
// promises: validate, diff and upgrades of each within its budget (2 s for 3,000 bundles each
// covering all others with skipRange ">=0.0.0", 5 s for a 100,000-entry replaces chain; peak
// memory is measured per process by make bench's rows).
var catalogShapes = []struct {
	shape string
	n     int
}{
	{synth.ShapeSkipRangeAll, 3000},
	{synth.ShapeReplacesChain, 100_000},
}

// BenchmarkCatalogShapes runs catalog validate, diff (HEAD adds one bundle to BASE) and upgrades
// in process on each shape.
func BenchmarkCatalogShapes(b *testing.B) {
	for _, s := range catalogShapes {
		base, head := filepath.Join(b.TempDir(), "base"), filepath.Join(b.TempDir(), "head")
		if err := synth.WriteShape(base, s.shape, s.n-1); err != nil {
			b.Fatal(err)
		}
		if err := synth.WriteShape(head, s.shape, s.n); err != nil {
			b.Fatal(err)
		}
		for _, args := range [][]string{
			{"catalog", "validate", head},
			{"catalog", "diff", base, head},
			{"catalog", "upgrades", head},
		} {
			b.Run(s.shape+"/"+args[1], func(b *testing.B) {
				for b.Loop() {
					if code := run(context.Background(), args, strings.NewReader(""), io.Discard, io.Discard); code > 1 {
						b.Fatalf("opack %s: exit %d", strings.Join(args, " "), code)
					}
				}
			})
		}
	}
}
