package validate

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "github.com/operator-framework/api/pkg/validation/errors"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/packagemanifest"
)

// TestCRDCacheValidatesOnce: bundles that need the same CRD content at the same time validate it once;
// the others wait and get its outcome under their own file and object names.
func TestCRDCacheValidatesOnce(t *testing.T) {
	tests := []struct {
		name    string
		bundles int
	}{
		{"one bundle", 1},
		{"side by side", 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &crdCache{}
			key := c.key(&packagemanifest.SourceFile{Raw: []byte("kind: CustomResourceDefinition\n")}, "1.33")
			var misses atomic.Int32
			var wg sync.WaitGroup
			got := make([][]finding.Finding, tt.bundles)
			for i := range tt.bundles {
				wg.Add(1)
				go func() {
					defer wg.Done()
					file := "b" + string(rune('0'+i)) + "/crd.yaml"
					r, server, ok := c.get(context.Background(), key, file, "CustomResourceDefinition/as.x.io")
					if !ok {
						misses.Add(1)
						r.Add(apierrors.ErrInvalidCSV("bad", "x"))
						server = []finding.Finding{{Rule: "api-server", Message: "invalid", File: file, Object: "CustomResourceDefinition/as.x.io"}}
						c.put(key, r, server)
					} else if len(r.Errors) != 1 {
						t.Errorf("cached result has %d errors, want 1", len(r.Errors))
					}
					got[i] = server
				}()
			}
			wg.Wait()
			if n := misses.Load(); n != 1 {
				t.Errorf("validated %d times, want once", n)
			}
			for i, server := range got {
				want := []finding.Finding{{Rule: "api-server", Message: "invalid", File: "b" + string(rune('0'+i)) + "/crd.yaml", Object: "CustomResourceDefinition/as.x.io"}}
				if diff := cmp.Diff(want, server); diff != "" {
					t.Errorf("bundle %d (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

// TestCRDCacheCancelledWait: a bundle whose context ends while it waits validates the CRD itself, and
// a second outcome does not replace the first.
func TestCRDCacheCancelledWait(t *testing.T) {
	c := &crdCache{}
	key := c.key(&packagemanifest.SourceFile{Raw: []byte("x")}, "1.33")
	if _, _, ok := c.get(context.Background(), key, "a", "o"); ok {
		t.Fatal("first get: ok, want a miss")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, ok := c.get(ctx, key, "b", "o"); ok {
		t.Fatal("cancelled get: ok, want a miss")
	}
	c.put(key, apierrors.ManifestResult{Name: "first"}, nil)
	c.put(key, apierrors.ManifestResult{Name: "second"}, nil)
	r, _, ok := c.get(context.Background(), key, "c", "o")
	if !ok || r.Name != "first" {
		t.Errorf("get after two puts = %q, %v; want \"first\", true", r.Name, ok)
	}
}

// TestCRDCachePanicReleases: when the bundle validating a CRD gives no outcome (a validator panicked,
// and release ran), the bundles waiting for it validate it themselves instead of waiting for ever.
func TestCRDCachePanicReleases(t *testing.T) {
	c := &crdCache{}
	key := c.key(&packagemanifest.SourceFile{Raw: []byte("x")}, "1.33")
	if _, _, ok := c.get(context.Background(), key, "a", "o"); ok {
		t.Fatal("first get: ok, want a miss")
	}
	waited := make(chan bool)
	go func() {
		_, _, ok := c.get(context.Background(), key, "b", "o")
		waited <- ok
	}()
	func() {
		defer func() { _ = recover() }()
		defer c.release(key)
		panic("validator panicked")
	}()
	if ok := <-waited; ok {
		t.Error("waiting get after a release without outcome: ok, want a miss")
	}
	c.put(key, apierrors.ManifestResult{Name: "second"}, nil)
	c.release(key) // after an outcome: a no-op
	if r, _, ok := c.get(context.Background(), key, "c", "o"); !ok || r.Name != "second" {
		t.Errorf("get after put = %q, %v; want \"second\", true", r.Name, ok)
	}
}
