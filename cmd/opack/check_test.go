package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project"
)

// TestCheckOutput checks what opack check prints for a result: -o json keeps stdout one JSON
// document that fails on drift (one finding per out-of-date file, the diff on stderr), and -q
// prints only errors. What the bundle generator dropped is printed when the bundle changed, or with
// -v; findings on published releases are one line per package in text and github output, every one
// with --published, -v or -o json.
func TestCheckOutput(t *testing.T) {
	dropped := []bundle.Dropped{{Kind: "Namespace", Name: "ns", Source: "kustomize build config/manifests, document 1", Reason: "r"}}
	const diff = "--- a/bundle/x.yaml\n+++ b/bundle/x.yaml\n@@ -1 +1 @@\n-a\n+b\n"
	warn := finding.Warnf("bundle/manifests/x.yaml", "ClusterServiceVersion x", "operator-sdk/csv", "minKubeVersion is not set")
	drift := &project.BuildResult{Version: "0.0.2", Outputs: []string{"bundle"}, Written: []string{"bundle"},
		DiffFiles: []string{"bundle/x.yaml"}, Diff: diff, Findings: []finding.Finding{warn}, Warnings: []string{"w1"},
		Dropped: dropped, BundleChanged: true}
	clean := &project.BuildResult{Version: "0.0.2", Outputs: []string{"bundle"}, Findings: []finding.Finding{warn}, Warnings: []string{"w1"}, Dropped: dropped}
	pub := finding.Finding{Severity: finding.SeverityWarning, File: "catalog", Object: `package "op" edge op.v1 -> op.v2`, Package: "op",
		Rule: "crd-upgrade/field-removed", Message: "field removed"}
	pub.MarkPublished()
	published := &project.BuildResult{Version: "0.0.3", Outputs: []string{"bundle"}, Findings: []finding.Finding{warn, pub, pub}}
	outOfDateJSON := `{
    "passed": false,
    "outputs": [
        {
            "type": "warning",
            "message": "minKubeVersion is not set",
            "file": "bundle/manifests/x.yaml",
            "object": "ClusterServiceVersion x",
            "rule": "operator-sdk/csv",
            "severity": "warning"
        },
        {
            "type": "error",
            "message": "bundle/x.yaml is out of date: run opack build and commit the result",
            "file": "bundle/x.yaml",
            "rule": "check/out-of-date",
            "severity": "error"
        }
    ]
}
`
	tests := []struct {
		name     string
		output   string
		quiet    bool
		verbose  bool
		listPub  bool // --published
		res      *project.BuildResult
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"json drift", "json", false, false, false, drift, exitFindings, outOfDateJSON,
			"warning: w1\ndropped: Namespace ns (kustomize build config/manifests, document 1): r\n" + diff},
		{"json up to date", "json", false, false, false, clean, 0, `{
    "passed": true,
    "outputs": [
        {
            "type": "warning",
            "message": "minKubeVersion is not set",
            "file": "bundle/manifests/x.yaml",
            "object": "ClusterServiceVersion x",
            "rule": "operator-sdk/csv",
            "severity": "warning"
        }
    ]
}
`, "warning: w1\nversion 0.0.2: 1 outputs up to date\n"},
		{"quiet up to date", "text", true, false, false, clean, 0, "", ""},
		{"quiet drift", "text", true, false, false, drift, exitFindings,
			"error: bundle/x.yaml: bundle/x.yaml is out of date: run opack build and commit the result\n" + diff, ""},
		{"github drift", "github", false, false, false, drift, exitFindings,
			"::warning file=bundle/manifests/x.yaml,title=ClusterServiceVersion x operator-sdk/csv::minKubeVersion is not set\n" +
				"::error file=bundle/x.yaml,title=check/out-of-date::bundle/x.yaml is out of date: run opack build and commit the result\n" + diff,
			"warning: w1\ndropped: Namespace ns (kustomize build config/manifests, document 1): r\n"},
	}
	const foldedPub = "info: catalog: package \"op\": 2 findings on releases already published, which this build cannot change (2 warnings): list them with --published (or -v)\n"
	pubLine := "warning: catalog: package \"op\" edge op.v1 -> op.v2: " + finding.PublishedPrefix + "field removed\n"
	warnLine := "warning: bundle/manifests/x.yaml: ClusterServiceVersion x: minKubeVersion is not set\n"
	tests = append(tests, []struct {
		name     string
		output   string
		quiet    bool
		verbose  bool
		listPub  bool
		res      *project.BuildResult
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"bundle unchanged: nothing dropped said", "text", false, false, false, clean, 0, warnLine + "version 0.0.2: 1 outputs up to date\n", "warning: w1\n"},
		{"-v says what was dropped", "text", false, true, false, clean, 0, warnLine + "version 0.0.2: 1 outputs up to date\n",
			"warning: w1\ndropped: Namespace ns (kustomize build config/manifests, document 1): r\n"},
		{"published folded", "text", false, false, false, published, 0, warnLine + foldedPub + "version 0.0.3: 1 outputs up to date\n", ""},
		{"published listed", "text", false, false, true, published, 0, warnLine + pubLine + pubLine + "version 0.0.3: 1 outputs up to date\n", ""},
		{"published listed with -v", "text", false, true, false, published, 0, warnLine + pubLine + pubLine + "version 0.0.3: 1 outputs up to date\n", ""},
		{"published folded in github", "github", false, false, false, published, 0,
			"::warning file=bundle/manifests/x.yaml,title=ClusterServiceVersion x operator-sdk/csv::minKubeVersion is not set\n" +
				"::notice file=catalog,title=package \"op\" catalog/published::2 findings on releases already published, which this build cannot change (2 warnings): list them with --published (or -v)\n" +
				"version 0.0.3: 1 outputs up to date\n", ""},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &pipelineFlags{output: tt.output, quiet: tt.quiet, verbose: tt.verbose, published: tt.listPub}
			var out, errOut bytes.Buffer
			err := f.finishCheck(&out, &errOut, tt.res, nil)
			code := 0
			if err != nil {
				code = exitUsage
				var ee *exitError
				if errors.As(err, &ee) {
					code = ee.code
				}
			}
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (%v)", code, tt.wantCode, err)
			}
			if diff := cmp.Diff(tt.wantOut, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantErr, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if tt.output == "json" && !json.Valid(out.Bytes()) {
				t.Errorf("stdout is not JSON:\n%s", out.String())
			}
		})
	}
}

// TestCheckJSONKeepsPublished: -o json lists every finding on published releases, one by one.
func TestCheckJSONKeepsPublished(t *testing.T) {
	pub := finding.Finding{Severity: finding.SeverityWarning, File: "catalog", Object: `package "op" edge op.v1 -> op.v2`, Package: "op",
		Rule: "crd-upgrade/field-removed", Message: "field removed"}
	pub.MarkPublished()
	res := &project.BuildResult{Version: "0.0.3", Outputs: []string{"bundle"}, Findings: []finding.Finding{pub, pub}}
	var out, errOut bytes.Buffer
	if err := (&pipelineFlags{output: "json"}).finishCheck(&out, &errOut, res, nil); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Outputs []struct {
			Published bool   `json:"published"`
			Rule      string `json:"rule"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Outputs) != 2 || !doc.Outputs[0].Published || !doc.Outputs[1].Published {
		t.Errorf("want both published findings, got %+v", doc.Outputs)
	}
}
