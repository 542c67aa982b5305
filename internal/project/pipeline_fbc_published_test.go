package project

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project/config"
)

// TestPublishedEdges: every finding on edges between published releases (error, warning or info;
// CRD changes, a release only in the graph as a skip) says "already published" the same way and is
// marked published (JSON); only errors are lowered. Findings on an edge into or out of the bundle
// being built, and findings on no edge, are left alone.
func TestPublishedEdges(t *testing.T) {
	published := []finding.Edge{{From: "op.v1.0.0", To: "op.v1.1.0"}}
	into := []finding.Edge{{From: "op.v1.1.0", To: "op.v1.2.0"}}
	mixed := []finding.Edge{{From: "op.v1.0.0", To: "op.v1.1.0"}, {From: "op.v1.0.0", To: "op.v1.2.0"}}
	out := []finding.Edge{{From: "op.v1.2.0", To: "op.v1.3.0"}}
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
		{"edge out of the build", finding.Finding{Severity: finding.SeverityWarning, Edges: out, Message: "m"},
			finding.Finding{Severity: finding.SeverityWarning, Edges: out, Message: "m"}},
		{"a published release only in the graph as a skip", finding.Finding{Severity: finding.SeverityWarning, Rule: "catalog/graph", Edges: published, Message: "m"},
			finding.Finding{Severity: finding.SeverityWarning, Rule: "catalog/graph", Edges: published, Message: p + "m", Published: true}},
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

// TestPublishedEdgesCorpus runs the pipeline's CRD check of every edge on a real published package
// (dell-csm-operator-certified of ../shared/corpus/fbc/certified-operators-v4.14-partial: errors and
// warnings on edges between published releases) as a build adding a new release to it
// would: every finding on an edge is marked published with the one wording, none stays an error, and
// the -o json report of them follows docs/findings.schema.json.
func TestPublishedEdgesCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "fbc", "certified-operators-v4.14-partial", "dell-csm-operator-certified")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: %s not found (needs ../shared beside the repository): %v", dir, err)
	}
	ctx := context.Background()
	cfg, err := fbc.LoadDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	// deploy.olm v0: findings OLM v1 alone refuses are warnings (another installer refuses them), not
	// errors; TestInstallersRaiseSeverity covers a project deploying with OLM v1.
	r := &run{p: &config.Project{Deploy: config.Deploy{OLM: "v0"}}, csvName: "dell-csm-operator-certified.v9.9.9"}
	fs := r.edgeFindings(ctx, cfg, "catalog")
	errs := 0
	for _, f := range fs {
		if f.Severity == finding.SeverityError && len(f.Edges) > 0 {
			errs++
		}
	}
	if errs == 0 {
		t.Fatal("no error on an edge of the package: the test checks nothing")
	}
	fs = r.publishedEdges(fs)
	seen := map[finding.Severity]int{}
	for _, f := range fs {
		if len(f.Edges) == 0 {
			continue
		}
		seen[f.Severity]++
		if !f.Published || !strings.HasPrefix(f.Message, finding.PublishedPrefix) || f.Severity == finding.SeverityError {
			t.Errorf("finding on a published edge not marked so: %v", f)
		}
	}
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "docs", "findings.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (&finding.Report{Findings: fs}).WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(&out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("-o json does not follow docs/findings.schema.json:\n%v", err)
	}
	if seen[finding.SeverityWarning] < errs {
		t.Errorf("want the %d errors as warnings on published edges, got %v", errs, seen)
	}
}
