package check

import (
	"context"
	"fmt"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// maxCRDEdges is the most upgrade edges of one package the CRD checks compare. skipRange and
// skips lists can make a package's edges quadratic in its bundles (5,000 bundles each with
// `skipRange: <1.0.i` are 12.5 million edges); each checked edge holds its findings, so above
// the limit a package is reported instead of checked, and memory stays linear in the catalog.
var maxCRDEdges = 200_000 // a variable for tests

// overEdgeLimit returns the packages with more than maxCRDEdges edges: their edge count, or
// minus their edge count where no bundle of the package carries CRDs (nothing to compare, so
// they are reported as the usual unchecked edges).
func overEdgeLimit(ctx context.Context, m *fbc.Model, g *graph.Graph, cache *crdCache) map[string]int {
	over := map[string]int{}
	for _, pn := range m.SortedPackages() {
		n := g.PackageLen(pn)
		if n <= maxCRDEdges {
			continue
		}
		over[pn] = -n
		for _, bn := range fbc.SortedKeys(m.Packages[pn].Bundles) {
			if r := cache.get(ctx, pn, bn, nil); r.ok || r.err != nil {
				over[pn] = n
				break
			}
		}
		cache.drop(pn)
	}
	return over
}

func edgeLimitFinding(pkg string, n int) finding.Finding {
	return finding.Warnf("", fmt.Sprintf("package %q", pkg), ruleCRD,
		"%d upgrade edges, more than the %d opack checks for CRD safety in one package: its edges are not checked (skipRange and skips lists make an edge from every release they cover); narrow each skipRange to the releases a cluster can really be on (e.g. \">=1.4.0 <1.5.2\") or split the package's channels",
		n, maxCRDEdges)
}
