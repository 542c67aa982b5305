package check

import (
	"context"
	"os"
	"testing"

	"github.com/opack/opack/internal/fbc"
)

const corpusFBC = "../../../../shared/corpus/fbc/certified-operators-v4.22"

func corpusDir(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("corpus test skipped in -short mode")
	}
	if _, err := os.Stat(corpusFBC); err != nil {
		tb.Skipf("corpus %s not present: %v", corpusFBC, err)
	}
	return corpusFBC
}

// BenchmarkCorpusLoad loads certified-operators-v4.22.
func BenchmarkCorpusLoad(b *testing.B) {
	dir := corpusDir(b)
	for b.Loop() {
		if _, err := fbc.LoadDir(context.Background(), dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCorpusValidate loads and validates certified-operators-v4.22 with every check group.
func BenchmarkCorpusValidate(b *testing.B) {
	dir := corpusDir(b)
	for b.Loop() {
		if _, err := ValidateDir(context.Background(), dir, nil); err != nil {
			b.Fatal(err)
		}
	}
}
