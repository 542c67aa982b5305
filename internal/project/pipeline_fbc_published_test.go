package project

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
)

// TestPublishedEdges: every finding on edges between published releases (error, warning or info)
// says "already published" the same way and is marked published (JSON); only errors are lowered.
// Findings on an edge into the bundle being built, and findings on no edge, are left alone.
func TestPublishedEdges(t *testing.T) {
	published := []finding.Edge{{From: "op.v1.0.0", To: "op.v1.1.0"}}
	into := []finding.Edge{{From: "op.v1.1.0", To: "op.v1.2.0"}}
	mixed := []finding.Edge{{From: "op.v1.0.0", To: "op.v1.1.0"}, {From: "op.v1.0.0", To: "op.v1.2.0"}}
	const p = finding.PublishedPrefix
	tests := []struct {
		name string
		in   finding.Finding
		want finding.Finding
	}{
		{"error lowered", finding.Finding{Severity: finding.SeverityError, Edges: published, Message: "m"},
			finding.Finding{Severity: finding.SeverityWarning, Edges: published, Message: p + "m", Published: true}},
		{"warning prefixed", finding.Finding{Severity: finding.SeverityWarning, Edges: published, Message: "m"},
			finding.Finding{Severity: finding.SeverityWarning, Edges: published, Message: p + "m", Published: true}},
		{"info prefixed", finding.Finding{Severity: finding.SeverityInfo, Edges: published, Message: "m"},
			finding.Finding{Severity: finding.SeverityInfo, Edges: published, Message: p + "m", Published: true}},
		{"edge into the build", finding.Finding{Severity: finding.SeverityError, Edges: into, Message: "m"},
			finding.Finding{Severity: finding.SeverityError, Edges: into, Message: "m"}},
		{"one of the edges into the build", finding.Finding{Severity: finding.SeverityError, Edges: mixed, Message: "m"},
			finding.Finding{Severity: finding.SeverityError, Edges: mixed, Message: "m"}},
		{"no edge", finding.Finding{Severity: finding.SeverityError, Message: "m"},
			finding.Finding{Severity: finding.SeverityError, Message: "m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{csvName: "op.v1.2.0"}
			got := r.publishedEdges([]finding.Finding{tt.in})
			if diff := cmp.Diff([]finding.Finding{tt.want}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
