package project

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project/config"
)

func TestCRDSources(t *testing.T) {
	crd := func(name string) string {
		return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: " + name +
			"\nspec:\n  group: example.com\n  names:\n    kind: W\n    plural: ws\n  scope: Namespaced\n"
	}
	files := map[string]string{
		"config/crd/bases/ws.example.com.yaml":    crd("ws.example.com"),
		"config/crd/patches/webhook_in_ws.yaml":   "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ws.example.com\nspec:\n  conversion: {strategy: Webhook}\n",
		"config/crd/bases/twice.example.com.yaml": crd("twice.example.com"),
		"config/other/twice.example.com.yaml":     crd("twice.example.com"),
		"config/crd/bases/broken.yaml":            "kind: [\n",
		"config/manifests/kustomization.yaml":     "resources: [../crd]\n",
		"config/samples/notes.txt":                crd("txt.example.com"),
		"bundle/manifests/ws.example.com.yaml":    crd("ws.example.com"),
		"bundle/manifests/bundleonly.example.com": crd("bundleonly.example.com"),
		"config/crd/bases/multi.example.com.json": `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"multi.example.com"},"spec":{"names":{"kind":"M"}}}`,
	}
	tests := []struct {
		name, kustomizeDir string
		want               map[string]string
	}{
		{"config tree", "config/manifests", map[string]string{
			"ws.example.com":    "config/crd/bases/ws.example.com.yaml",
			"multi.example.com": "config/crd/bases/multi.example.com.json",
		}},
		{"kustomization at the top", ".", map[string]string{
			"ws.example.com":    "config/crd/bases/ws.example.com.yaml",
			"multi.example.com": "config/crd/bases/multi.example.com.json",
		}},
	}
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{p: &config.Project{Dir: dir, KustomizeDir: tt.kustomizeDir, Bundle: config.Bundle{Dir: "bundle"}, Outputs: config.Outputs{Dir: "_output"}}}
			if diff := cmp.Diff(tt.want, r.crdSources()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultChannelFindings(t *testing.T) {
	cfg := func(def string, channels ...string) *fbc.DeclarativeConfig {
		c := &fbc.DeclarativeConfig{Packages: []fbc.Package{{Name: "op", DefaultChannel: def}, {Name: "other", DefaultChannel: "nope"}}}
		for _, ch := range channels {
			c.Channels = append(c.Channels, fbc.Channel{Name: ch, Package: "op"})
		}
		return c
	}
	tests := []struct {
		name string
		cfg  *fbc.DeclarativeConfig
		want []finding.Finding
	}{
		{"default channel present", cfg("alpha", "alpha", "beta"), nil},
		{"default channel missing", cfg("nosuch", "beta", "alpha"), []finding.Finding{finding.Errorf("catalog-template.yaml", "package op", RuleDefaultChannel,
			`default channel "nosuch" not found: the catalog's channels of op are alpha, beta; set defaultChannel in opack.yaml (and in catalog-template.yaml) to one of them, or add "nosuch" to channels`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{p: &config.Project{File: "opack.yaml", Package: "op"}}
			got := r.defaultChannelFindings(tt.cfg, config.Catalog{Template: "catalog-template.yaml"})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
