package crd

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/opack/opack/internal/benchutil"

	"github.com/opack/opack/internal/crd/load"
)

// corpusPairs loads every bundle of the certified-operators corpus and returns the consecutive version
// pairs of each operator (skipping bundles whose CRDs do not load).
func corpusPairs(b *testing.B) (dirs [][2]string, sets [][2]*load.Set) {
	b.Helper()
	root := benchutil.CorpusDir(b, "certified-operators")
	ctx := context.Background()
	for _, versions := range corpusBundles(b, root) {
		var prev *load.Set
		var prevDir string
		for _, dir := range versions {
			set, err := load.CRDs(ctx, dir)
			if err != nil {
				prev = nil
				continue
			}
			if prev != nil {
				dirs = append(dirs, [2]string{prevDir, dir})
				sets = append(sets, [2]*load.Set{prev, set})
			}
			prev, prevDir = set, dir
		}
	}
	return dirs, sets
}

// forEach runs f(i) for i in [0,n) on all cores.
func forEach(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// BenchmarkCorpusCRDUpgrade checks every consecutive version pair of the certified-operators corpus
// on all cores: "compare" with the CRDs already loaded (schema comparison and the API server's own
// validation of the new CRDs), "load+compare" as `opack validate crds OLD NEW` does per pair.
func BenchmarkCorpusCRDUpgrade(b *testing.B) {
	dirs, sets := corpusPairs(b)
	if len(sets) == 0 {
		b.Fatal("no bundle pairs in the corpus")
	}
	b.Run("compare", func(b *testing.B) {
		b.ReportAllocs()
		defer benchutil.Measure(b)()
		for b.Loop() {
			forEach(len(sets), func(i int) { CompareSets(sets[i][0], sets[i][1]) })
		}
		b.ReportMetric(float64(len(sets)), "pairs")
	})
	b.Run("compare-schemas-only", func(b *testing.B) {
		b.ReportAllocs()
		defer benchutil.Measure(b)()
		for b.Loop() {
			forEach(len(sets), func(i int) { CompareSets(sets[i][0], sets[i][1], WithAPIServerValidation(false)) })
		}
	})
	b.Run("load+compare", func(b *testing.B) {
		ctx := context.Background()
		b.ReportAllocs()
		defer benchutil.Measure(b)()
		for b.Loop() {
			forEach(len(dirs), func(i int) {
				old, err := load.CRDs(ctx, dirs[i][0])
				if err != nil {
					b.Error(err)
					return
				}
				cur, err := load.CRDs(ctx, dirs[i][1])
				if err != nil {
					b.Error(err)
					return
				}
				CompareSets(old, cur)
			})
		}
	})
}
