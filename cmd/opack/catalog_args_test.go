package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCatalogAndImageArguments checks how catalog and image commands read their arguments:
// missing paths are not pulled from Docker Hub, bundle folders are named as such, empty
// catalogs and unknown packages are errors, an OCI layout folder works without "oci:", and
// every bad -o value gets the same message.
func TestCatalogAndImageArguments(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty")
	plain := filepath.Join(tmp, "plain")
	for _, d := range []string{empty, plain} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	layout := filepath.Join(tmp, "layout")
	if code, _, stderr := runImage("image", "bundle", imageBundleDir, "--tag", "example.com/memcached-bundle:v1", "--oci-layout", layout); code != exitOK {
		t.Fatalf("image bundle: exit %d: %s", code, stderr)
	}
	fbc := opmGolden + "/fbc-index-declcfgs/latest"
	bundles := opmGolden + "/bundles-registry-v1"
	bundle := bundles + "/foo-bundle-v0.1.0"
	tests := []struct {
		name       string
		args       []string
		code       int
		wantStdout string
		wantStderr string
	}{
		{"validate missing path", []string{"catalog", "validate", "nope"}, exitUsage, "", "nope: no such file or folder, and not an image reference"},
		{"validate bundle folder", []string{"catalog", "validate", bundle}, exitUsage, "", "is a bundle folder (manifests/ and metadata/), not a file-based catalog"},
		{"validate folder of bundles", []string{"catalog", "validate", bundles}, exitUsage, "", "is a folder of bundles"},
		{"validate empty folder", []string{"catalog", "validate", empty}, exitUsage, "", "holds no catalog objects"},
		{"render folder of bundles", []string{"catalog", "render", bundles}, exitUsage, "", "render them into one with `opack catalog render " + bundles + "/*/`"},
		{"render missing path", []string{"catalog", "render", "nope"}, exitUsage, "", "nope: no such file or folder, and not an image reference"},
		{"render layout folder", []string{"catalog", "render", layout}, exitOK, `"image": "example.com/memcached-bundle:v1"`, ""},
		{"graph unknown package", []string{"catalog", "graph", fbc, "-p", "nosuch"}, exitUsage, "", `package "nosuch" is not in the catalog (packages: bar, baz, foo)`},
		{"graph --bundle trailing comma", []string{"catalog", "graph", fbc, "--bundle", bundle + ","}, exitOK, "graph LR", ""},
		{"graph missing path", []string{"catalog", "graph", "nope"}, exitUsage, "", "nope: no such file or folder, and not an image reference"},
		{"inspect missing path", []string{"image", "inspect", "nope"}, exitUsage, "", "nope: no such file or folder, and not an image reference"},
		{"inspect plain folder", []string{"image", "inspect", plain}, exitUsage, "", "is a local file or folder, not an image"},
		{"inspect layout folder", []string{"image", "inspect", layout}, exitOK, "name:      example.com/memcached-bundle:v1\n", ""},
		{"inspect layout:tag", []string{"image", "inspect", layout + ":v1"}, exitUsage, "", "is an OCI image layout: write oci:" + layout + ":v1"},
		{"validate -o", []string{"catalog", "validate", fbc, "-o", "x"}, exitUsage, "", `unknown output format "x": use one of text, json, github`},
		{"render -o", []string{"catalog", "render", fbc, "-o", "x"}, exitUsage, "", `unknown output format "x": use one of json, yaml`},
		{"graph -o", []string{"catalog", "graph", fbc, "-o", "x"}, exitUsage, "", `unknown output format "x": use one of mermaid, dot`},
		{"template -o", []string{"catalog", "template", "basic", "x.yaml", "-o", "x"}, exitUsage, "", `unknown output format "x": use one of json, yaml, mermaid`},
		{"inspect -o", []string{"image", "inspect", layout, "-o", "x"}, exitUsage, "", `unknown output format "x": use one of text, json`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := execCatalog(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.wantStdout) || !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stdout %q, stderr %q; want stdout containing %q and stderr containing %q", stdout, stderr, tc.wantStdout, tc.wantStderr)
			}
			if len(stderr) > 2000 {
				t.Errorf("stderr is %d bytes; errors must not dump objects", len(stderr))
			}
		})
	}
}
