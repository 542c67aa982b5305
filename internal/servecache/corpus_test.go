package servecache

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// corpusFBC is a catalog of many packages in ../shared (see ../shared/README.md).
const corpusFBC = "../../../shared/corpus/fbc/certified-operators-v4.22"

func TestCorpusBuildDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus-scale test: run without -short")
	}
	if _, err := os.Stat(corpusFBC); err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", corpusFBC, err)
	}
	first := build(t, corpusFBC)
	if d := cmp.Diff(first, build(t, corpusFBC)); d != "" {
		t.Fatalf("second build differs (-first +second):\n%.3000s", d)
	}
	t.Logf("%d cache files", len(first))
}
