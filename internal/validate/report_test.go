package validate

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func sampleReport() *Report {
	return &Report{Findings: []Finding{
		{Severity: SeverityWarning, File: "b/manifests/x.csv.yaml", Object: "ClusterServiceVersion x.v1", Rule: "operator-sdk/csv", Message: "Warning: Value : (x.v1) minKubeVersion"},
		{Severity: SeverityError, File: "b/manifests/crd.yaml", Object: "CustomResourceDefinition a.b", Rule: "apiserver/crd", Message: "bad, really\nbad: 100%"},
	}}
}

func TestReportWriters(t *testing.T) {
	tests := []struct {
		format string
		want   string
	}{
		{FormatText, "warning: b/manifests/x.csv.yaml: ClusterServiceVersion x.v1: Warning: Value : (x.v1) minKubeVersion\n" +
			"error: b/manifests/crd.yaml: CustomResourceDefinition a.b: bad, really\\nbad: 100%\n"},
		{FormatGitHub, "::warning file=b/manifests/x.csv.yaml,title=ClusterServiceVersion x.v1 operator-sdk/csv::Warning: Value : (x.v1) minKubeVersion\n" +
			"::error file=b/manifests/crd.yaml,title=CustomResourceDefinition a.b apiserver/crd::bad, really%0Abad: 100%25\n"},
		{FormatJSON, `{
    "passed": false,
    "outputs": [
        {
            "type": "warning",
            "message": "Warning: Value : (x.v1) minKubeVersion",
            "file": "b/manifests/x.csv.yaml",
            "object": "ClusterServiceVersion x.v1",
            "rule": "operator-sdk/csv"
        },
        {
            "type": "error",
            "message": "bad, really\nbad: 100%",
            "file": "b/manifests/crd.yaml",
            "object": "CustomResourceDefinition a.b",
            "rule": "apiserver/crd"
        }
    ]
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := sampleReport().Write(&buf, tt.format); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if err := sampleReport().Write(&bytes.Buffer{}, "yaml"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestReportExitCode(t *testing.T) {
	tests := []struct {
		name     string
		findings []Finding
		code     int
		summary  string
	}{
		{"empty", nil, ExitPassed, "0 errors, 0 warnings"},
		{"warnings pass", []Finding{{Severity: SeverityWarning}}, ExitPassed, "0 errors, 1 warning"},
		{"an error fails", []Finding{{Severity: SeverityWarning}, {Severity: SeverityError}, {Severity: SeverityError}}, ExitFindings, "2 errors, 1 warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Findings: tt.findings}
			if got := r.ExitCode(); got != tt.code {
				t.Errorf("ExitCode() = %d, want %d", got, tt.code)
			}
			if got := r.Summary(); got != tt.summary {
				t.Errorf("Summary() = %q, want %q", got, tt.summary)
			}
		})
	}
}

func TestReportJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := (&Report{}).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	// operator-sdk writes "outputs": null when there is nothing to report.
	if diff := cmp.Diff("{\n    \"passed\": true,\n    \"outputs\": null\n}\n", buf.String()); diff != "" {
		t.Error(diff)
	}
}

func TestSortFindings(t *testing.T) {
	fs := []Finding{
		{File: "b", Severity: SeverityWarning, Message: "2"},
		{File: "a", Severity: SeverityWarning, Message: "1"},
		{File: "b", Severity: SeverityError, Message: "3"},
	}
	SortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Message)
	}
	if diff := cmp.Diff([]string{"1", "3", "2"}, got); diff != "" {
		t.Error(diff)
	}
}
