package check

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/fuzzseed"
)

// FuzzLoadFBC: loading any stream never panics; a loaded catalog validates without panicking,
// and writing it as JSON and loading that again gives the same JSON.
func FuzzLoadFBC(f *testing.F) {
	fuzzseed.Add(f, fuzzseed.FBC...)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := fbc.LoadReader(bytes.NewReader(data), "fuzz.yaml")
		if err != nil {
			var le *fbc.LoadError
			if !errors.As(err, &le) && err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		_ = Validate(context.Background(), cfg)
		var first bytes.Buffer
		if err := fbc.WriteJSON(*cfg, &first); err != nil {
			return
		}
		again, err := fbc.LoadReader(bytes.NewReader(first.Bytes()), "again.json")
		if err != nil {
			t.Fatalf("loading the written catalog failed: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := fbc.WriteJSON(*again, &second); err != nil {
			t.Fatalf("writing the reloaded catalog failed: %v", err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("write/load/write is not stable:\n%s\n----\n%s", first.Bytes(), second.Bytes())
		}
	})
}
