package upgrades

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/fbc"
)

// corpusDir is ../shared/corpus/fbc beside the repository.
const corpusDir = "../../../../shared/corpus/fbc"

// TestCorpus computes the upgrades of every release of every package of the real catalogs of
// ../shared: no error, and the head's own path is empty.
func TestCorpus(t *testing.T) {
	dirs, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", corpusDir, err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			cfg, err := fbc.LoadDir(context.Background(), filepath.Join(corpusDir, d.Name()), fbc.WithoutPropertyValues(fbc.TypeBundleObject, fbc.TypeCSVMetadata))
			if err != nil {
				t.Fatalf("loading: %v", err)
			}
			m, _ := fbc.Convert(cfg)
			releases, stranded := 0, 0
			for _, pn := range m.SortedPackages() {
				res, err := Compute(m, Request{Package: pn})
				if err != nil {
					t.Errorf("Compute(%s): %v", pn, err)
					continue
				}
				for _, c := range res.Channels {
					stranded += len(c.Stranded)
					for _, r := range c.Releases {
						releases++
						if r.Name == c.Head && (len(r.V0Path) > 0 || len(r.V1Path) > 0) {
							t.Errorf("%s/%s: the head %s moves on: v0 %v, v1 %v", pn, c.Name, r.Name, r.V0Path, r.V1Path)
						}
					}
				}
			}
			for _, pn := range m.SortedPackages() {
				sameStranded(t, m, pn)
			}
			t.Logf("%d packages, %d releases, %d stranded", len(m.Packages), releases, stranded)
		})
	}
}
