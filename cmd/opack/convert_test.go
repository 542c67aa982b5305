package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConvertPackageManifestsCmd(t *testing.T) {
	pkg := validateTestdata("packagemanifests", "etcd")
	broken := filepath.Join(t.TempDir(), "etcd")
	if err := os.CopyFS(broken, os.DirFS(pkg)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "etcd.package.yaml"), []byte("packageName: etcd\nchannels:\n- name: alpha\n  currentCSV: etcdoperator.v9.9.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bundles")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"converts", []string{pkg, "--output-dir", out}, exitOK, out + "/0.9.4\tetcdoperator.v0.9.4\tsinglenamespace-alpha\n", ""},
		{"refuses a broken package", []string{broken, "--output-dir", out}, exitFindings, "", "currentCSV etcdoperator.v9.9.9 is not in the package"},
		{"needs --output-dir", []string{pkg}, exitUsage, "", "--output-dir is required"},
		{"refuses an output inside the input", []string{pkg, "--output-dir", filepath.Join(pkg, "out")}, exitUsage, "", "overlaps the package folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"convert", "packagemanifests"}, tt.args...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderr, stderr.String())
			}
		})
	}
	// The converted bundles validate as bundles.
	var stdout, stderr bytes.Buffer
	dirs, _ := filepath.Glob(filepath.Join(out, "*"))
	if code := run(context.Background(), append([]string{"validate", "bundle", "-o", "json"}, dirs...), nil, &stdout, &stderr); code == exitUsage || len(dirs) != 6 {
		t.Errorf("validating %d converted bundles: exit %d\n%s", len(dirs), code, stderr.String())
	}
	if strings.Contains(stdout.String(), "error validating format") {
		t.Errorf("converted bundles fail the format check:\n%s", stdout.String())
	}
}
