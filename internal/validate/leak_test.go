package validate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/leakcheck"
)

// TestBundlesLeaveNoGoroutines validates many bundles in parallel, to the end and cancelled
// part-way, and checks that no worker outlives the call.
func TestBundlesLeaveNoGoroutines(t *testing.T) {
	cases, err := os.ReadDir(filepath.Join("..", "..", "testdata", "validate", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, c := range cases {
		if c.IsDir() {
			args = append(args, filepath.Join("..", "..", "testdata", "validate", "cases", c.Name()))
		}
	}
	for _, tc := range []struct {
		name   string
		cancel bool
	}{
		{name: "to the end"},
		{name: "cancelled", cancel: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leakcheck.Check(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				cancel()
			}
			rep, err := Bundles(ctx, args, WithParallelism(4))
			if !tc.cancel && (err != nil || rep == nil) {
				t.Fatalf("Bundles() = %v, %v", rep, err)
			}
		})
	}
}
