package finding

import (
	"bytes"
	"encoding/json"
	"fmt"
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
            "rule": "operator-sdk/csv",
            "severity": "warning"
        },
        {
            "type": "error",
            "message": "bad, really\nbad: 100%",
            "file": "b/manifests/crd.yaml",
            "object": "CustomResourceDefinition a.b",
            "rule": "apiserver/crd",
            "severity": "error"
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
	err := sampleReport().Write(&bytes.Buffer{}, "yaml")
	if diff := cmp.Diff(`unknown output format "yaml": use one of text, json, github`, fmt.Sprint(err)); diff != "" {
		t.Errorf("unknown format (-want +got):\n%s", diff)
	}
}

func TestCheckFormat(t *testing.T) {
	tests := []struct {
		format    string
		supported []string
		want      string // the error, "" for none
	}{
		{"text", Formats, ""},
		{"json", Formats, ""},
		{"json-alpha1", Formats, ""},
		{"github", Formats, ""},
		{"x", Formats, `unknown output format "x": use one of text, json, github`},
		{"", Formats, `unknown output format "": use one of text, json, github`},
		{"json-alpha1", []string{"mermaid", "dot"}, `unknown output format "json-alpha1": use one of mermaid, dot`},
		{"dot", []string{"mermaid", "dot"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			got := ""
			if err := CheckFormat(tt.format, tt.supported...); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReportJSONCRDFields: CRD upgrade findings carry their parts as JSON fields, left out when empty;
// severity, rule and file are always there.
func TestReportJSONCRDFields(t *testing.T) {
	r := &Report{Findings: []Finding{{Severity: SeverityError, File: "new/crd.yaml", Object: "CustomResourceDefinition a.b",
		Rule: "crd-upgrade/type-changed", Message: "m", CRD: "a.b", Version: "v1", Path: "^.spec.x", Old: "integer", New: "string", Fix: "f"},
		{Severity: SeverityWarning, Rule: "crd-upgrade/crd-removed", Message: "gone", CRD: "c.d"}}}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want := `{
    "passed": false,
    "outputs": [
        {
            "type": "error",
            "message": "m",
            "file": "new/crd.yaml",
            "object": "CustomResourceDefinition a.b",
            "rule": "crd-upgrade/type-changed",
            "crd": "a.b",
            "version": "v1",
            "path": "^.spec.x",
            "old": "integer",
            "new": "string",
            "fix": "f",
            "severity": "error"
        },
        {
            "type": "warning",
            "message": "gone",
            "file": "",
            "rule": "crd-upgrade/crd-removed",
            "crd": "c.d",
            "severity": "warning"
        }
    ]
}
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestReportExitCode(t *testing.T) {
	tests := []struct {
		name     string
		findings []Finding
		code     int
		summary  string
	}{
		{"empty", nil, exitPassed, "0 errors, 0 warnings"},
		{"warnings pass", []Finding{{Severity: SeverityWarning}}, exitPassed, "0 errors, 1 warning"},
		{"an error fails", []Finding{{Severity: SeverityWarning}, {Severity: SeverityError}, {Severity: SeverityError}}, exitFindings, "2 errors, 1 warning"},
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

// TestFindingJSONContract: a catalog finding's package (set, or read from its object), edges,
// actors (Actors, or Actor alone) and published mark are JSON fields.
func TestFindingJSONContract(t *testing.T) {
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{"package from object", Finding{Severity: SeverityWarning, Object: `package "p" channel "c"`, Rule: "catalog/graph", Message: "m"},
			`{"type":"warning","message":"m","file":"","object":"package \"p\" channel \"c\"","rule":"catalog/graph","severity":"warning","package":"p"}`},
		{"edges, actor", Finding{Severity: SeverityError, File: "c/p.yaml", Package: "p", Rule: "crd-upgrade/field-removed", Message: "m",
			Edges: []Edge{{From: "a", To: "b"}}, Actor: "olm-v1", Paths: []string{"^.spec.x", "^.spec.y"}},
			`{"type":"error","message":"m","file":"c/p.yaml","rule":"crd-upgrade/field-removed","actor":"olm-v1","paths":["^.spec.x","^.spec.y"],` +
				`"severity":"error","package":"p","edges":[{"from":"a","to":"b"}],"actors":["olm-v1"]}`},
		{"published", Finding{Severity: SeverityWarning, Rule: "r/x", Message: "m", Published: true, Actors: []string{"apiserver", "olm-v1"}},
			`{"type":"warning","message":"m","file":"","rule":"r/x","severity":"warning","actors":["apiserver","olm-v1"],"published":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestMarkPublished: every finding on a published edge gets the same prefix (once); only errors are
// lowered, to warnings.
func TestMarkPublished(t *testing.T) {
	tests := []struct {
		name string
		in   Finding
		want Finding
	}{
		{"error lowered", Finding{Severity: SeverityError, Message: "m"}, Finding{Severity: SeverityWarning, Message: PublishedPrefix + "m", Published: true}},
		{"warning kept", Finding{Severity: SeverityWarning, Message: "m"}, Finding{Severity: SeverityWarning, Message: PublishedPrefix + "m", Published: true}},
		{"info kept", Finding{Severity: SeverityInfo, Message: "m"}, Finding{Severity: SeverityInfo, Message: PublishedPrefix + "m", Published: true}},
		{"prefixed once", Finding{Severity: SeverityWarning, Message: PublishedPrefix + "m"}, Finding{Severity: SeverityWarning, Message: PublishedPrefix + "m", Published: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in
			got.MarkPublished()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPackageOf(t *testing.T) {
	tests := []struct{ object, want string }{
		{`package "p"`, "p"},
		{`package "p" edge a -> b`, "p"},
		{`package "a\"b" channel "c"`, `a"b`},
		{"ClusterServiceVersion x", ""},
		{`package p in range ">=1.5.2"`, "p"},
		{"package ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.object, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, PackageOf(tt.object)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestFindingStringFix: the text of a finding says its fix, once, as the JSON's fix field does.
func TestFindingStringFix(t *testing.T) {
	tests := []struct {
		name string
		f    Finding
		want string
	}{
		{"no fix", Finding{Severity: SeverityError, File: "a.yaml", Message: "m"}, "error: a.yaml: m"},
		{"fix", Finding{Severity: SeverityError, File: "a.yaml", Message: "m", Fix: "do x"}, "error: a.yaml: m; fix: do x"},
		{"fix already in the message", Finding{Severity: SeverityWarning, Message: "m; fix: do x", Fix: "do x"}, "warning: m; fix: do x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.f.String()); diff != "" {
				t.Errorf("String() (-want +got):\n%s", diff)
			}
		})
	}
}
