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
// prints only errors.
func TestCheckOutput(t *testing.T) {
	const diff = "--- a/bundle/x.yaml\n+++ b/bundle/x.yaml\n@@ -1 +1 @@\n-a\n+b\n"
	warn := finding.Warnf("bundle/manifests/x.yaml", "ClusterServiceVersion x", "operator-sdk/csv", "minKubeVersion is not set")
	drift := &project.BuildResult{Version: "0.0.2", Outputs: []string{"bundle"}, Written: []string{"bundle"},
		DiffFiles: []string{"bundle/x.yaml"}, Diff: diff, Findings: []finding.Finding{warn}, Warnings: []string{"w1"},
		Dropped: []bundle.Dropped{{Kind: "Namespace", Name: "ns", Source: "kustomize build config/manifests, document 1", Reason: "r"}}}
	clean := &project.BuildResult{Version: "0.0.2", Outputs: []string{"bundle"}, Findings: []finding.Finding{warn}, Warnings: []string{"w1"}}
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
		res      *project.BuildResult
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"json drift", "json", false, drift, exitFindings, outOfDateJSON,
			"warning: w1\ndropped: Namespace ns (kustomize build config/manifests, document 1): r\n" + diff},
		{"json up to date", "json", false, clean, 0, `{
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
		{"quiet up to date", "text", true, clean, 0, "", ""},
		{"quiet drift", "text", true, drift, exitFindings,
			"error: bundle/x.yaml: bundle/x.yaml is out of date: run opack build and commit the result\n" + diff, ""},
		{"github drift", "github", false, drift, exitFindings,
			"::warning file=bundle/manifests/x.yaml,title=ClusterServiceVersion x operator-sdk/csv::minKubeVersion is not set\n" +
				"::error file=bundle/x.yaml,title=check/out-of-date::bundle/x.yaml is out of date: run opack build and commit the result\n" + diff,
			"warning: w1\ndropped: Namespace ns (kustomize build config/manifests, document 1): r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &pipelineFlags{output: tt.output, quiet: tt.quiet}
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
