package render

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/synth"
)

// slowWriter calls first before its first Write.
type slowWriter struct {
	buf   bytes.Buffer
	first func()
}

func (w *slowWriter) Write(p []byte) (int, error) {
	if w.first != nil {
		w.first()
		w.first = nil
	}
	return w.buf.Write(p)
}

// TestRenderToDeadlineDoesNotCutTheOutput: the context's deadline (the registry timeout) bounds
// rendering, not writing: a reader slower than the deadline still gets the whole catalog, while a
// cancellation stops the writing.
func TestRenderToDeadlineDoesNotCutTheOutput(t *testing.T) {
	res, err := synth.Write(t.TempDir(), synth.Config{Seed: 3, Bundles: 30})
	if err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	want := renderToText(t, newCachedRenderer(t, cacheDir, WithImageRefTemplate(synthImageRefTpl)), "json", res.BundleDirs...)
	if len(want) < 1<<20 {
		t.Fatalf("output of %d bytes fits the writer's buffer: the test would not write while items are pending", len(want))
	}

	t.Run("deadline passes while writing", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		w := &slowWriter{first: func() { <-ctx.Done() }} // the first write waits for the deadline
		r := newCachedRenderer(t, cacheDir, WithImageRefTemplate(synthImageRefTpl))
		if err := r.RenderTo(ctx, w, "json", res.BundleDirs...); err != nil {
			t.Fatalf("RenderTo: %v", err)
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatal("the deadline had not passed: the test did not test it")
		}
		if diff := cmp.Diff(want, w.buf.String()); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
	})
	t.Run("cancellation stops writing", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		w := &slowWriter{first: cancel} // canceled once writing has started
		r := newCachedRenderer(t, cacheDir, WithImageRefTemplate(synthImageRefTpl))
		err := r.RenderTo(ctx, w, "json", res.BundleDirs...)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("RenderTo after cancel = %v, want context.Canceled", err)
		}
	})
}
