package check

import (
	"sync"

	"github.com/opack/opack/internal/fbc"
)

// A decoded CRD takes 10-13x the bytes of its JSON (every properties map of apiextensions'
// JSONSchemaProps holds its 512-byte values inline, in groups of 8), so two edges of a package
// with 700 KB CRDs, checked in parallel, hold ~30 MB of decoded schemas. Edges therefore run in
// parallel only while the CRD JSON of the edges in flight stays within a budget; an edge above
// it runs alone. Most edges are far below it, and the catalog's next file parses meanwhile, so
// the cores stay busy (docs/performance.md).

// edgeBudgetBytes is the CRD JSON that parallel edges may hold at once (~12 MB decoded).
const edgeBudgetBytes = 1 << 20

// edgeBudget bounds the CRD bytes of the edges checked at once.
type edgeBudget struct {
	mu    sync.Mutex
	freed *sync.Cond
	used  int64
	limit int64
}

func newEdgeBudget(limit int64) *edgeBudget {
	b := &edgeBudget{limit: limit}
	b.freed = sync.NewCond(&b.mu)
	return b
}

// acquire waits until w fits beside the edges in flight, or nothing is in flight (an edge
// without CRD bytes never waits).
func (b *edgeBudget) acquire(w int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for w > 0 && b.used > 0 && b.used+w > b.limit {
		b.freed.Wait()
	}
	b.used += w
}

// release gives back what acquire took.
func (b *edgeBudget) release(w int64) {
	b.mu.Lock()
	b.used -= w
	b.mu.Unlock()
	b.freed.Broadcast()
}

// edgeWeight is the JSON size of the CRDs of an edge's two bundles (0 when not from objects).
func edgeWeight(m *fbc.Model, dec *decodeCache, pkg string, bundles ...string) int64 {
	var w int64
	for _, name := range bundles {
		if b := m.Packages[pkg].Bundles[name]; b != nil {
			for _, c := range dec.candidates(b.Blob) {
				w += int64(len(b.Blob.Objects[c.index]))
			}
		}
	}
	return w
}
