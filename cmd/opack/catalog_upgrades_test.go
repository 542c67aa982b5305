package main

import (
	"strings"
	"testing"
)

func TestCatalogUpgrades(t *testing.T) {
	cat := opmGolden + "/fbc-index-declcfgs/latest"
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		// foo/beta: 0.2.0 replaces 0.1.0; 0.3.1 replaces 0.2.0 and skips 0.3.0 (never installed).
		{"text", []string{"--package", "foo"}, exitOK, "  0.1.0  foo.v0.1.0\n    v0: 0.1.0 → 0.2.0 → 0.3.1 (head)\n    v1: 0.1.0 → 0.2.0 → 0.3.1 (head)\n"},
		{"every package", nil, exitOK, "package baz (default channel stable)\n"},
		{"json", []string{"-p", "foo", "--from", "0.2.0", "-o", "json"}, exitOK, `"v0Path": [
                "foo.v0.3.1"
              ],
              "v0Stop": "head",`},
		{"mermaid", []string{"-p", "foo", "-o", "mermaid"}, exitOK, "linkStyle "},
		{"unknown package", []string{"-p", "nope"}, exitUsage, ""},
		{"from without package", []string{"--from", "1.0.0"}, exitUsage, ""},
		{"bad output", []string{"-p", "foo", "-o", "dot"}, exitUsage, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"catalog", "upgrades", cat}, tc.args...)
			code, out, stderr := execCatalog(t, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, stderr)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, out)
			}
		})
	}
}
