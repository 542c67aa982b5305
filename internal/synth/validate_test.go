package synth

import (
	"context"
	"testing"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/finding"
)

// TestCatalogIsValid: the generated graphs are what opm accepts and every edge is CRD-safe, so a
// benchmark of validation measures a clean catalog.
func TestCatalogIsValid(t *testing.T) {
	root := t.TempDir()
	res, err := Write(root, Config{Seed: 3, Bundles: 40, VersionsPerPackage: 10, MaxCRDs: 3})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := check.ValidateDir(context.Background(), res.CatalogDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Severity == finding.SeverityError {
			t.Errorf("%s", f.Message)
		}
	}
}
