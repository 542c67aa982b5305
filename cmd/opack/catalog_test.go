package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

const opmGolden = "../../testdata/opm"

func execCatalog(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestCatalogValidateExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"valid", []string{"catalog", "validate", "--checks", "opm", opmGolden + "/fbc-dir-example"}, exitOK, ""},
		{"invalid", []string{"catalog", "validate", opmGolden + "/fbc-e2e-prometheus"}, exitFindings,
			`package "prometheus", bundle "prometheusoperator.0.14.0" not found in any channel entries`},
		{"json", []string{"catalog", "validate", "-o", "json", "--checks", "opm", opmGolden + "/validate-cases/Error_DuplicatePackage/catalog"}, exitFindings,
			`"message": "duplicate package \"foo\""`},
		{"bad checks", []string{"catalog", "validate", "--checks", "opm,nope", opmGolden + "/fbc-dir-example"}, exitUsage, ""},
		{"missing", []string{"catalog", "validate", "oci:/nonexistent/layout"}, exitUsage, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := execCatalog(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, stderr)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

func TestCatalogGraphMermaid(t *testing.T) {
	code, out, stderr := execCatalog(t, "catalog", "graph", opmGolden+"/fbc-index-declcfgs/latest")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(out, "graph LR\n") || !strings.Contains(out, `bar-alpha-bar.v0.1.0["bar.v0.1.0"]-- "skipRange(<0.2.0)" --> bar-alpha-bar.v0.2.0["bar.v0.2.0"]`) {
		t.Errorf("unexpected mermaid:\n%s", out)
	}
	code, out, _ = execCatalog(t, "catalog", "graph", "-o", "dot", "--package", "foo", opmGolden+"/fbc-index-declcfgs/latest")
	if code != exitOK || !strings.HasPrefix(out, "digraph catalog {") || strings.Contains(out, `"bar"`) {
		t.Errorf("unexpected dot (exit %d):\n%s", code, out)
	}
}
