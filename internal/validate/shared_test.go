package validate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/packagemanifest"
)

// validateSharing validates each bundle in turn with one ParseCache, as a run does, and checks after each
// that no object shared across bundles (packagemanifest.ParseCache) was written to.
func validateSharing(t *testing.T, bundles []string) {
	t.Helper()
	pc := &packagemanifest.ParseCache{}
	c, err := makeConfig([]Option{func(c *config) { c.parsed = pc }})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bundles {
		if _, err := c.validateTarget(context.Background(), target{arg: b}); err != nil {
			t.Fatalf("validating %s: %v", b, err)
		}
		if err := pc.SharedUnchanged(); err != nil {
			t.Fatalf("after validating %s: %v", b, err)
		}
	}
}

func TestSharedObjectsUnchanged(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/validate/cases/*/bundle")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no validate cases: %v", err)
	}
	bundles := append([]string{goSample}, cases...)
	// Twice: the second pass shares every content with the first.
	validateSharing(t, append(bundles, bundles...))
}

func TestCorpusSharedObjectsUnchanged(t *testing.T) {
	validateSharing(t, corpusBundles(t))
}
