package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/project/config"
)

// TestBuildTemplateReleases builds two releases into the catalog template: the basic template
// opack starts (whose last entry is the channel after the first release), and a semver
// template the project moves to after its first release.
func TestBuildTemplateReleases(t *testing.T) {
	tests := []struct {
		name     string
		channels []string
		// template, when set, replaces the template after the first release (opack starts a
		// basic one), given the first release's bundle digest.
		template func(digest1 string) string
		want     func(digest1, digest2 string) string
		wantEdge string // 0.0.2's channel entry in the rendered catalog
	}{{
		name:     "basic",
		channels: []string{"alpha"},
		wantEdge: "- name: memcached-operator.v0.0.2\n  replaces: memcached-operator.v0.0.1\n",
		want: func(d1, d2 string) string {
			return `schema: olm.template.basic
entries:
- schema: olm.package
  name: memcached-operator
  defaultChannel: alpha
- schema: olm.bundle
  image: ` + d1 + `
- schema: olm.channel
  package: memcached-operator
  name: alpha
  entries:
    - name: memcached-operator.v0.0.1
    - name: memcached-operator.v0.0.2
      replaces: memcached-operator.v0.0.1
- schema: olm.bundle
  image: ` + d2 + `
`
		},
	}, {
		name:     "semver",
		channels: []string{"stable"},
		wantEdge: "- name: memcached-operator.v0.0.2\n  skips:\n  - memcached-operator.v0.0.1\n",
		template: func(d1 string) string {
			return "# releases\nschema: olm.semver\nGenerateMajorChannels: false\nGenerateMinorChannels: true\nStable:\n  Bundles:\n    - Image: " + d1 + "\n"
		},
		want: func(d1, d2 string) string {
			return "# releases\nschema: olm.semver\nGenerateMajorChannels: false\nGenerateMinorChannels: true\nStable:\n  Bundles:\n    - Image: " +
				d1 + "\n    - Image: " + d2 + "\n"
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := sampleProject(t)
			tmplPath := filepath.Join(dir, config.DefaultCatalogTemplate)
			p := load(t, dir)
			p.Channels, p.DefaultChannel = tt.channels, tt.channels[0]
			res1, err := Build(ctx, p)
			if err != nil {
				t.Fatalf("build 0.0.1: %v", err)
			}
			if tt.template != nil {
				if err := os.WriteFile(tmplPath, []byte(tt.template(res1.Bundle.Digest)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p = load(t, dir)
			p.Channels, p.DefaultChannel = tt.channels, tt.channels[0]
			res2, err := Build(ctx, p, BuildVersion("0.0.2"))
			if err != nil {
				t.Fatalf("build 0.0.2: %v", err)
			}
			got, err := os.ReadFile(tmplPath)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want(res1.Bundle.Digest, res2.Bundle.Digest), string(got)); diff != "" {
				t.Errorf("template after two releases (-want +got):\n%s", diff)
			}
			cat, err := os.ReadFile(filepath.Join(dir, "catalog", "memcached-operator", "catalog.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(cat), tt.wantEdge) {
				t.Errorf("the catalog has no channel entry %q", tt.wantEdge)
			}
		})
	}
}
