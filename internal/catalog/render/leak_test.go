package render

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/leakcheck"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/fbc"
)

// TestParallelPathsLeaveNoGoroutines loads, validates and renders with several workers, to the
// end and cancelled, and checks that no worker outlives the call.
func TestParallelPathsLeaveNoGoroutines(t *testing.T) {
	catalogDir := filepath.Join("..", "..", "..", "testdata", "opm", "fbc-e2e-prometheus")
	bundles := filepath.Join("testdata", "bundles")
	for _, cancelled := range []bool{false, true} {
		name := map[bool]string{false: "to the end", true: "cancelled"}[cancelled]
		t.Run(name, func(t *testing.T) {
			leakcheck.Check(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if cancelled {
				cancel()
			}
			_, lerr := fbc.LoadDir(ctx, catalogDir, fbc.WithConcurrency(4))
			_, verr := check.ValidateDir(ctx, catalogDir, []fbc.LoadOption{fbc.WithConcurrency(4)})
			r, err := NewRenderer(withParallelism(4))
			if err != nil {
				t.Fatal(err)
			}
			_, rerr := r.Render(ctx, filepath.Join(bundles, "kubecost-operator.v3.2.3"), filepath.Join(bundles, "kubecost-operator.v3.2.4"))
			if !cancelled {
				for what, err := range map[string]error{"LoadDir": lerr, "ValidateDir": verr, "Render": rerr} {
					if err != nil {
						t.Errorf("%s: %v", what, err)
					}
				}
			}
		})
	}
}
