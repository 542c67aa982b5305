package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImageCatalogValidatesFirst: an invalid catalog is refused with opm's message and nothing is
// written, unless --no-validate; a valid one is packed.
func TestImageCatalogValidatesFirst(t *testing.T) {
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	const fbc = `schema: olm.package
name: p
defaultChannel: stable
---
schema: olm.channel
package: p
name: alpha
entries:
  - name: p.v0.1.0
---
schema: olm.bundle
package: p
name: p.v0.1.0
image: quay.io/x/p-bundle:v0.1.0
properties:
  - type: olm.package
    value: {packageName: p, version: 0.1.0}
`
	if err := os.WriteFile(filepath.Join(bad, "p", "catalog.yaml"), []byte(fbc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		dir        string
		extra      []string
		wantCode   int
		wantStderr []string
	}{
		{"invalid refused", bad, nil, exitFindings, []string{
			`p/catalog.yaml: package "p" channel "stable": channel must contain at least one bundle`,
			"is not a valid catalog (1 error, 0 warnings): fix it, or pass --no-validate",
		}},
		{"invalid has no serve cache", bad, []string{"--no-validate"}, exitUsage, []string{
			"opm serve refuses this catalog, so no serve cache can be built: fix the catalog, or pass --no-serve-cache too",
		}},
		{"invalid packed with --no-validate --no-serve-cache", bad, []string{"--no-validate", "--no-serve-cache"}, exitOK, nil},
		{"valid packed", imageCatalogDir, nil, exitOK, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "layout")
			code, stdout, stderr := runImage(append([]string{"image", "catalog", tc.dir, "--oci-layout", out}, tc.extra...)...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.wantCode, stderr)
			}
			for _, w := range tc.wantStderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not contain %q", stderr, w)
				}
			}
			_, statErr := os.Stat(filepath.Join(out, "index.json"))
			if wrote := statErr == nil; wrote != (tc.wantCode == exitOK) || (stdout != "") != wrote {
				t.Errorf("layout written %v, stdout %q; want a layout and a digest only on success", wrote, stdout)
			}
		})
	}
}
