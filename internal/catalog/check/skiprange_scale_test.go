package check

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// skipRangeCatalog is issue 16's reproduction: n bundles of one package and channel, each
// replacing the one before and skipping every earlier release (`skipRange: <1.0.i`), so the
// graph has n²/2 edges from an input of n entries.
func skipRangeCatalog(n int) *fbc.DeclarativeConfig {
	cfg := &fbc.DeclarativeConfig{
		Packages: []fbc.Package{{Schema: "olm.package", Name: "big", DefaultChannel: "stable"}},
		Channels: []fbc.Channel{{Schema: "olm.channel", Name: "stable", Package: "big"}},
	}
	for i := range n {
		name := fmt.Sprintf("big.v1.0.%d", i)
		e := fbc.ChannelEntry{Name: name, SkipRange: fmt.Sprintf("<1.0.%d", i)}
		if i > 0 {
			e.Replaces = fmt.Sprintf("big.v1.0.%d", i-1)
		}
		cfg.Channels[0].Entries = append(cfg.Channels[0].Entries, e)
		cfg.Bundles = append(cfg.Bundles, fbc.Bundle{Schema: "olm.bundle", Name: name, Package: "big",
			Image:      "example.com/big@sha256:" + strings.Repeat("0", 60) + fmt.Sprintf("%04d", i%10000),
			Properties: []fbc.Property{{Type: "olm.package", Value: []byte(fmt.Sprintf(`{"packageName":"big","version":"1.0.%d"}`, i))}}})
	}
	return cfg
}

func TestSkipRangeGraphIsCompact(t *testing.T) {
	cfg := skipRangeCatalog(100)
	m, _ := ConvertToModel(cfg)
	g := graph.BuildGraph(m)
	if want, got := 99+100*99/2, g.Len(); want != got {
		t.Errorf("edges: want %d, got %d", want, got)
	}
	if want, got := 99, len(g.Ranges); want != got {
		t.Errorf("range records: want %d (one per entry with a non-empty range), got %d", want, got)
	}
	n := 0
	for e := range g.All() {
		if e.Kind == graph.EdgeSkipRange {
			n++
		}
	}
	if want := 100 * 99 / 2; n != want {
		t.Errorf("skipRange edges yielded: want %d, got %d", want, n)
	}
}

// TestSkipRangeCatalogMemory validates the 5,000-bundle skipRange catalog with every check
// and asserts a generous cap on the process's peak RSS (issue 16: it took 8.5 GB).
func TestSkipRangeCatalogMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000-bundle skipRange catalog skipped in -short mode")
	}
	cfg := skipRangeCatalog(5000)
	if !benchutil.ResetPeak() {
		t.Skip("peak RSS cannot be reset on this kernel")
	}
	r := Validate(context.Background(), cfg)
	peak := benchutil.PeakRSS()
	t.Logf("peak RSS %d MB", peak>>20)
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MB, want under 300 MB", peak>>20)
	}
	var crdInfo bool
	for _, f := range r.Findings {
		if f.Severity == finding.SeverityError {
			t.Errorf("unexpected error: %s", f)
		}
		if strings.Contains(f.Message, fmt.Sprintf("%d upgrade edge(s) not checked", 4999+5000*4999/2)) {
			crdInfo = true
		}
	}
	if !crdInfo {
		t.Errorf("no finding counting the package's unchecked edges; got %v", r.Findings)
	}
}

// BenchmarkSkipRangeValidate is TestSkipRangeCatalogMemory as a benchmark (make bench).
func BenchmarkSkipRangeValidate(b *testing.B) {
	cfg := skipRangeCatalog(5000)
	defer benchutil.Measure(b)()
	for b.Loop() {
		Validate(context.Background(), cfg)
	}
}
