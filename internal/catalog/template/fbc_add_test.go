package template

import (
	"github.com/opack/opack/internal/fbc"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const fbcYAML = `---
defaultChannel: stable
name: op
schema: olm.package
---
schema: olm.channel
package: op
name: stable
entries:
  - name: op.v1.0.0
  # a comment kept
  - name: op.v1.1.0
    replaces: op.v1.0.0
---
image: quay.io/me/op-bundle@sha256:aaa
name: op.v1.1.0
package: op
schema: olm.bundle
properties:
- type: olm.package
  value: {packageName: op, version: 1.1.0}
`

const fbcJSON = `{
    "schema": "olm.package",
    "name": "op",
    "defaultChannel": "stable"
}
{
    "schema": "olm.channel",
    "name": "stable",
    "package": "op",
    "entries": [
        {
            "name": "op.v1.1.0"
        }
    ]
}
`

func newBundle() fbc.Bundle {
	return fbc.Bundle{Schema: fbc.SchemaBundle, Name: "op.v1.2.0", Package: "op", Image: "quay.io/me/op-bundle@sha256:bbb",
		Properties: []fbc.Property{fbc.NewPackageProperty("op", "1.2.0")}}
}

func TestAddToFBC(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string][]byte
		opts    FBCAddOptions
		want    map[string]string // file → a part of it that must be there
		wantErr string
	}{
		{name: "yaml: new head inserted as a line, bundle appended",
			files: map[string][]byte{"index.yaml": []byte(fbcYAML)}, opts: FBCAddOptions{Channels: []string{"stable"}},
			want: map[string]string{"index.yaml": "  - name: op.v1.1.0\n    replaces: op.v1.0.0\n  - name: op.v1.2.0\n    replaces: op.v1.1.0\n---\nimage: quay.io/me/op-bundle@sha256:aaa"}},
		{name: "bundle file pattern and a new channel", files: map[string][]byte{"index.yaml": []byte(fbcYAML)},
			opts: FBCAddOptions{Channels: []string{"fast"}, BundleFile: "bundles/op-1.2.0.yaml"},
			want: map[string]string{"index.yaml": "---\nentries:\n- name: op.v1.2.0\nname: fast\npackage: op\nschema: olm.channel\n",
				"bundles/op-1.2.0.yaml": "---\nimage: quay.io/me/op-bundle@sha256:bbb\nname: op.v1.2.0\npackage: op\n"}},
		{name: "json stream", files: map[string][]byte{"op/catalog.json": []byte(fbcJSON)}, opts: FBCAddOptions{Channels: []string{"stable"}},
			want: map[string]string{"op/catalog.json": `        {
            "name": "op.v1.1.0"
        },
        {
            "name": "op.v1.2.0",
            "replaces": "op.v1.1.0"
        }
    ]
}
{
    "schema": "olm.bundle",`}},
		{name: "already there", files: map[string][]byte{"index.yaml": []byte(strings.ReplaceAll(fbcYAML, "op.v1.1.0", "op.v1.2.0"))},
			opts: FBCAddOptions{Channels: []string{"stable"}}, wantErr: ErrBundleInCatalog.Error()},
		{name: "two heads", files: map[string][]byte{"index.yaml": []byte(strings.Replace(fbcYAML, "    replaces: op.v1.0.0\n", "", 1))},
			opts: FBCAddOptions{Channels: []string{"stable"}}, wantErr: `channel "stable" has 2 heads`},
		{name: "bundle file exists", files: map[string][]byte{"index.yaml": []byte(fbcYAML), "b.yaml": []byte("schema: olm.deprecations\npackage: op\n")},
			opts: FBCAddOptions{BundleFile: "b.yaml"}, wantErr: "b.yaml exists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddToFBC(tt.files, newBundle(), tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for n := range got {
				names = append(names, n)
			}
			var wantNames []string
			for n := range tt.want {
				wantNames = append(wantNames, n)
			}
			if diff := cmp.Diff(wantNames, names, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("changed files (-want +got):\n%s", diff)
			}
			for n, part := range tt.want {
				if !strings.Contains(string(got[n]), part) {
					t.Errorf("%s lacks %q:\n%s", n, part, got[n])
				}
			}
			// Every original blob is still there, and the result loads with the new bundle.
			all := map[string][]byte{}
			for n, d := range tt.files {
				all[n] = d
			}
			for n, d := range got {
				all[n] = d
			}
			for n, d := range tt.files {
				if old := string(d); !strings.Contains(string(all[n]), strings.SplitN(old, "entries", 2)[0]) {
					t.Errorf("%s lost its beginning", n)
				}
			}
			cfg := loadAll(t, all)
			if len(cfg.Bundles) == 0 || cfg.Bundles[len(cfg.Bundles)-1].Name != "op.v1.2.0" && !hasBundle(cfg, "op.v1.2.0") {
				t.Errorf("the new bundle does not load")
			}
		})
	}
}

func hasBundle(cfg *fbc.DeclarativeConfig, name string) bool {
	for _, b := range cfg.Bundles {
		if b.Name == name {
			return true
		}
	}
	return false
}

func loadAll(t *testing.T, files map[string][]byte) *fbc.DeclarativeConfig {
	t.Helper()
	out := &fbc.DeclarativeConfig{}
	for n, d := range files {
		cfg, err := fbc.LoadReader(strings.NewReader(string(d)), n)
		if err != nil {
			t.Fatalf("%s does not load: %v\n%s", n, err, d)
		}
		out.Packages = append(out.Packages, cfg.Packages...)
		out.Channels = append(out.Channels, cfg.Channels...)
		out.Bundles = append(out.Bundles, cfg.Bundles...)
	}
	return out
}

func TestReplaceFBCBundle(t *testing.T) {
	b := newBundle()
	b.Name = "op.v1.1.0"
	got, err := ReplaceFBCBundle(map[string][]byte{"index.yaml": []byte(fbcYAML)}, b)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got["index.yaml"])
	if strings.Contains(s, "sha256:aaa") || !strings.Contains(s, "image: quay.io/me/op-bundle@sha256:bbb") || !strings.HasPrefix(s, fbcYAML[:strings.Index(fbcYAML, "image:")]) {
		t.Errorf("replaced:\n%s", s)
	}
	if _, err := ReplaceFBCBundle(map[string][]byte{"index.yaml": []byte(fbcYAML)}, newBundle()); err == nil {
		t.Error("replacing a bundle not in the catalog succeeded")
	}
}

func TestIsFBCFile(t *testing.T) {
	tests := []struct {
		name, data string
		want       bool
	}{
		{"index.yaml", fbcYAML, true},
		{"catalog.json", fbcJSON, true},
		{"template.yaml", "schema: olm.template.basic\nentries: []\n", false},
		{"kustomization.yaml", "resources:\n- olm.yaml\n", false},
		{"mixed.yaml", fbcYAML + "---\napiVersion: v1\nkind: ConfigMap\n", false},
	}
	for _, tt := range tests {
		if got := IsFBCFile(tt.name, []byte(tt.data)); got != tt.want {
			t.Errorf("IsFBCFile(%s) = %v", tt.name, got)
		}
	}
}
