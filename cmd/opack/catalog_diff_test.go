package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// diffDemo is a package with the chain 1.0.0 → 1.1.0 → 1.2.0; drop removes entry lines.
func diffDemo(t *testing.T, drop ...string) string {
	t.Helper()
	channel := "---\ndefaultChannel: stable\nname: demo\nschema: olm.package\n---\nentries:\n- name: demo.v1.0.0\n- name: demo.v1.1.0\n  replaces: demo.v1.0.0\n- name: demo.v1.2.0\n  replaces: demo.v1.1.0\nname: stable\npackage: demo\nschema: olm.channel\n"
	for _, d := range drop {
		channel = strings.Replace(channel, d, "", 1)
	}
	for _, v := range []string{"1.0.0", "1.1.0", "1.2.0"} {
		channel += "---\nimage: example.com/demo-bundle:v" + v + "\nname: demo.v" + v + "\npackage: demo\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: " + v + "\nschema: olm.bundle\n"
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.yaml"), []byte(channel), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCatalogDiff(t *testing.T) {
	base := diffDemo(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"same", []string{base, diffDemo(t)}, exitOK, "0 packages changed"},
		{"skip added", []string{base, diffDemo(t, "  replaces: demo.v1.1.0\n")}, exitFindings, "newly stranded (reached the head before, no longer):\n    stable: 1.2.0, 1.1.0, 1.0.0: OLM v0 cannot resolve"},
		{"markdown", []string{base, diffDemo(t, "  replaces: demo.v1.1.0\n"), "-o", "markdown"}, exitFindings, "### opack catalog diff: failed"},
		{"github", []string{base, diffDemo(t, "  replaces: demo.v1.1.0\n"), "-o", "github"}, exitFindings, "::error file="},
		{"mermaid", []string{base, diffDemo(t, "  replaces: demo.v1.1.0\n"), "-o", "mermaid"}, exitFindings, "-.->|replaces removed|"},
		{"bad output", []string{base, base, "-o", "dot"}, exitUsage, ""},
		{"one argument", []string{base}, exitUsage, ""},
		{"bad git ref", []string{"git:HEAD", base}, exitUsage, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := execCatalog(t, append([]string{"catalog", "diff"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, stderr)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, out)
			}
		})
	}
}
