package check

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/benchutil"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// skipRangeCatalog is the worst case of skipRange: n bundles of one package and channel, each
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
// and asserts a generous cap on the process's peak RSS (it once took 8.5 GB).
func TestSkipRangeCatalogMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000-bundle skipRange catalog skipped in -short mode")
	}
	cfg := skipRangeCatalog(5000)
	if !benchutil.ResetPeak() {
		t.Skip("peak RSS cannot be reset on this kernel")
	}
	r := Validate(context.Background(), cfg)
	var drawn countWriter
	if err := WriteGraph(context.Background(), cfg, &drawn, GraphMermaid, graph.GraphOptions{CollapseRanges: true}, nil); err != nil {
		t.Fatal(err)
	}
	peak := benchutil.PeakRSS()
	t.Logf("collapsed mermaid graph: %d bytes", drawn)
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

func TestSkipRangeGraphDrawing(t *testing.T) {
	small := skipRangeCatalog(4)
	big := skipRangeCatalog(600) // 599 replaces + 179,700 skipRange edges: above graph.MaxDrawnEdges
	tests := []struct {
		name, format string
		cfg          *fbc.DeclarativeConfig
		collapse     bool
		want         []string // lines the output must hold
		wantErr      string
		maxBytes     int
	}{
		{name: "mermaid collapsed", format: GraphMermaid, cfg: small, collapse: true, want: []string{
			`      big-stable-big.v1.0.0["big.v1.0.0"]-- "skipRange(<1.0.3): 3 releases, 1.0.0 to 1.0.2" --> big-stable-big.v1.0.3["big.v1.0.3"]`,
			`      big-stable-big.v1.0.0["big.v1.0.0"]-- "skipRange(<1.0.1)" --> big-stable-big.v1.0.1["big.v1.0.1"]`,
		}},
		{name: "dot collapsed", format: GraphDot, cfg: small, collapse: true, want: []string{
			`      "big-stable-big.v1.0.0" -> "big-stable-big.v1.0.3" [label="skipRange(<1.0.3): 3 releases, 1.0.0 to 1.0.2"];`,
		}},
		{name: "dot expanded", format: GraphDot, cfg: small, want: []string{
			`      "big-stable-big.v1.0.1" -> "big-stable-big.v1.0.3" [label="skipRange(<1.0.3)"];`,
		}},
		{name: "too many edges", format: GraphMermaid, cfg: big, wantErr: "180299 edges, more than the 100000 drawn one by one"},
		{name: "too many edges collapsed", format: GraphMermaid, cfg: big, collapse: true, maxBytes: 300 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			err := WriteGraph(context.Background(), tt.cfg, &out, tt.format, graph.GraphOptions{CollapseRanges: tt.collapse}, nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(out.String(), "\n")
			for _, w := range tt.want {
				if !slices.Contains(lines, w) {
					t.Errorf("output lacks line\n%s\ngot:\n%s", w, out.String())
				}
			}
			if tt.maxBytes > 0 && out.Len() > tt.maxBytes {
				t.Errorf("output %d bytes, want at most %d", out.Len(), tt.maxBytes)
			}
		})
	}
}

// withCRD embeds the same small CRD in every bundle of cfg.
func withCRD(t *testing.T, cfg *fbc.DeclarativeConfig) *fbc.DeclarativeConfig {
	t.Helper()
	const crdJSON = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"bigs.example.com"},` +
		`"spec":{"group":"example.com","names":{"kind":"Big","listKind":"BigList","plural":"bigs","singular":"big"},"scope":"Namespaced",` +
		`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`
	for i := range cfg.Bundles {
		cfg.Bundles[i].Properties = append(cfg.Bundles[i].Properties, fbc.NewBundleObjectProperty([]byte(crdJSON)))
	}
	if err := fbc.ReadBundleObjects(cfg.Bundles); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestCRDEdgeLimit(t *testing.T) {
	tests := []struct {
		name  string
		limit int
		want  string // a finding's message must contain it; "" = no limit finding
	}{
		{name: "under the limit", limit: 1000},
		{name: "over the limit", limit: 10, want: "35 upgrade edges, more than the 10 opack checks for CRD safety in one package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(old int) { maxCRDEdges = old }(maxCRDEdges)
			maxCRDEdges = tt.limit
			r := Validate(context.Background(), withCRD(t, skipRangeCatalog(8)), WithChecks(CheckCRD))
			var got string
			for _, f := range r.Findings {
				if strings.Contains(f.Message, "opack checks for CRD safety") {
					got = f.Message
				}
				if strings.Contains(f.Message, "not checked for CRD safety") {
					t.Errorf("edges reported as lacking CRDs: %s", f)
				}
			}
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("limit finding: want %q, got %q", tt.want, got)
			}
		})
	}
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// TestSkipsListsAreShared: an explicit skips list becomes one record sharing the entry's list,
// and every listed bundle that exists (not the entry itself) is one edge.
func TestSkipsListsAreShared(t *testing.T) {
	cfg := skipRangeCatalog(5)
	for i := range cfg.Channels[0].Entries {
		e := &cfg.Channels[0].Entries[i]
		e.SkipRange = ""
		for j := range i {
			e.Skips = append(e.Skips, fmt.Sprintf("big.v1.0.%d", j))
		}
	}
	cfg.Channels[0].Entries[4].Skips = append(cfg.Channels[0].Entries[4].Skips, "big.v9.9.9", "big.v1.0.4")
	m, _ := ConvertToModel(cfg)
	g := graph.BuildGraph(m)
	var got []string
	for e := range g.All() {
		if e.Kind == graph.EdgeSkips {
			got = append(got, e.From+">"+e.To)
		}
	}
	want := []string{"big.v1.0.0>big.v1.0.1", "big.v1.0.0>big.v1.0.2", "big.v1.0.1>big.v1.0.2", "big.v1.0.0>big.v1.0.3", "big.v1.0.1>big.v1.0.3",
		"big.v1.0.2>big.v1.0.3", "big.v1.0.0>big.v1.0.4", "big.v1.0.1>big.v1.0.4", "big.v1.0.2>big.v1.0.4", "big.v1.0.3>big.v1.0.4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("skips edges (-want +got):\n%s", diff)
	}
	if len(g.Skips) != 4 || &g.Skips[1].From[0] != &m.Packages["big"].Channels["stable"].Entries[2].Skips[0] {
		t.Errorf("want 4 skips records, the complete lists shared with the entries; got %+v", g.Skips)
	}
}
