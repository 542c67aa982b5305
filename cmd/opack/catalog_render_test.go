package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const opmTestdata = "../../testdata/opm"

func runCatalogCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCatalogRenderCommand(t *testing.T) {
	bundle := filepath.Join(opmTestdata, "bundles-registry-v1", "foo-bundle-v0.3.1")
	expected := filepath.Join(opmTestdata, "render-expected", "foo-bundle-v0.3.1")
	cache := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"json", []string{"--image-ref-template", "test.registry/{{.Package}}-operator/{{.Package}}-bundle:v{{.Version}}"}, "expected.json"},
		{"csv metadata yaml", []string{"-o", "yaml", "--migrate-level", "bundle-object-to-csv-metadata",
			"--image-ref-template", "test.registry/{{.Package}}-operator/{{.Package}}-bundle:v{{.Version}}"}, "expected-csv-metadata.yaml"},
		{"no image", nil, "expected-no-image.json"},
		{"no image, no cache", []string{"--no-cache"}, "expected-no-image.json"},
		{"--timeout 0 means never", []string{"--timeout", "0"}, "expected-no-image.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(expected, tt.want))
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string{"catalog", "render", bundle, "--cache-dir", cache}, tt.args...)
			out, stderr, code := runCatalogCmd(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("output differs from opm (-opm +opack):\n%s", diff)
			}
		})
	}
}

func TestCatalogRenderCommandUsageErrors(t *testing.T) {
	bundle := filepath.Join(opmTestdata, "bundles-registry-v1", "foo-bundle-v0.3.1")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"catalog", "render"}, "requires at least 1 arg"},
		{[]string{"catalog", "render", bundle, "-o", "xml"}, `unknown output format "xml": use one of json, yaml`},
		{[]string{"catalog", "render", bundle, "--migrate-level", "v9"}, `unknown migration level "v9"`},
		{[]string{"catalog", "render", bundle, "--migrate", "--migrate-level", "none"}, "none of the others can be"},
	}
	for _, tt := range tests {
		_, stderr, code := runCatalogCmd(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: want exit %d and %q, got exit %d: %s", tt.args, exitUsage, tt.want, code, stderr)
		}
	}
}

func TestCatalogTemplateCommands(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"baz-bundle-v1.0.0", "baz-bundle-v1.0.1"} {
		if err := os.CopyFS(filepath.Join(dir, "bundles", n), os.DirFS(filepath.Join(opmTestdata, "bundles-registry-v1", n))); err != nil {
			t.Fatal(err)
		}
	}
	tpl := filepath.Join(dir, "catalog", "template.yaml")
	if err := os.MkdirAll(filepath.Dir(tpl), 0o755); err != nil {
		t.Fatal(err)
	}
	initial := "# baz releases\nschema: olm.semver\nstable:\n  bundles:\n  - image: ../bundles/baz-bundle-v1.0.0\n"
	if err := os.WriteFile(tpl, []byte(initial), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	_, stderr, code := runCatalogCmd(t, "catalog", "template", "add", tpl, filepath.Join(dir, "bundles", "baz-bundle-v1.0.1"), "--channel", "stable", "--cache-dir", cache)
	if code != 0 {
		t.Fatalf("template add: exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(tpl)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(initial+"  - image: ../bundles/baz-bundle-v1.0.1\n", string(got)); diff != "" {
		t.Errorf("template add (-want +got):\n%s", diff)
	}
	out, stderr, code := runCatalogCmd(t, "catalog", "template", "semver", tpl, "-o", "yaml", "--cache-dir", cache)
	if code != 0 {
		t.Fatalf("template semver: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"name: stable-v1.0\n", "- name: baz.v1.0.1\n  skips:\n  - baz.v1.0.0\n", "defaultChannel: stable-v1.0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered template lacks %q:\n%s", want, out)
		}
	}
	_, stderr, code = runCatalogCmd(t, "catalog", "template", "basic", tpl)
	if code == 0 || !strings.Contains(stderr, `template has unknown schema ("olm.semver")`) {
		t.Errorf("basic on a semver template: exit %d: %s", code, stderr)
	}
}
