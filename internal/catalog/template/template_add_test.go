package template

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

func readTemplate(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(templatesDir, name, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// removedLines returns out without the lines of added (each removed once), to check that an
// edit only added lines.
func removedLines(out string, added []string) string {
	for _, a := range added {
		out = strings.Replace(out, a+"\n", "", 1)
	}
	return out
}

func channelEntries(cfg *fbc.DeclarativeConfig, name string) []string {
	var out []string
	for _, c := range cfg.Channels {
		if c.Name != name {
			continue
		}
		for _, e := range c.Entries {
			out = append(out, fmt.Sprintf("%s<%s%v", e.Name, e.Replaces, e.Skips))
		}
	}
	return out
}

func TestAddTemplateBundleSemverInPlace(t *testing.T) {
	in := readTemplate(t, "semver-default")
	ref := "quay.io/foo/olm:testoperator.v1.2.0"
	out, err := AddTemplateBundle(context.Background(), in, ref, TemplateAddOptions{Channels: []string{"Stable", "fast"}})
	if err != nil {
		t.Fatal(err)
	}
	added := []string{"  - Image: " + ref, "  - Image: " + ref}
	if diff := cmp.Diff(string(in), removedLines(string(out), added)); diff != "" {
		t.Errorf("the edit changed more than the new lines (-before +after):\n%s", diff)
	}
	cfg, err := RenderTemplate(context.Background(), out, "", fakeTemplateRenderer(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := channelEntries(cfg, "stable-v1.2"); len(got) != 1 || !strings.HasPrefix(got[0], "testoperator.v1.2.0<") {
		t.Errorf("stable-v1.2: %v", got)
	}
	if cfg.Packages[0].DefaultChannel != "stable-v1.2" {
		t.Errorf("default channel %q, want stable-v1.2", cfg.Packages[0].DefaultChannel)
	}

	_, err = AddTemplateBundle(context.Background(), out, ref, TemplateAddOptions{Channels: []string{"stable"}})
	if err == nil || !strings.Contains(err.Error(), "already in the stable channels") {
		t.Errorf("adding twice: want an error, got %v", err)
	}
}

func TestAddTemplateBundleSemverNewArchetype(t *testing.T) {
	in := readTemplate(t, "semver-lowercase-keys")
	ref := "quay.io/foo/olm:foo.v2.1.0-rc.1"
	out, err := AddTemplateBundle(context.Background(), in, ref, TemplateAddOptions{Channels: []string{"candidate"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "candidate:\n  bundles:\n    - image: "+ref) {
		t.Errorf("new archetype not written in the template's key style:\n%s", out)
	}
	cfg, err := RenderTemplate(context.Background(), out, "", fakeTemplateRenderer(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := channelEntries(cfg, "candidate-v2"); len(got) != 1 {
		t.Errorf("candidate-v2: %v", got)
	}
}

func TestAddTemplateBundleSemverErrors(t *testing.T) {
	in := readTemplate(t, "semver-default")
	tests := []struct {
		channels []string
		want     string
	}{
		{nil, "needs --channel candidate, fast or stable"},
		{[]string{"beta"}, `not "beta"`},
	}
	for _, tt := range tests {
		_, err := AddTemplateBundle(context.Background(), in, "q/a:testoperator.v9.0.0", TemplateAddOptions{Channels: tt.channels})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("channels %v: want an error containing %q, got %v", tt.channels, tt.want, err)
		}
	}
}

func TestAddTemplateBundleBasic(t *testing.T) {
	in := readTemplate(t, "basic-example")
	ref := "docker.io/example/example-operator-bundle:example-operator.v0.3.0"
	render := fakeTemplateRenderer(nil)
	out, err := AddTemplateBundle(context.Background(), in, ref, TemplateAddOptions{Channels: []string{"stable", "fast"}, Render: render})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(in), "        replaces: example-operator.v0.1.0\n",
		"        replaces: example-operator.v0.1.0\n"+
			"      - name: example-operator.v0.3.0\n"+
			"        replaces: example-operator.v0.2.0\n", 1) +
		"  - schema: olm.bundle\n" +
		"    image: " + ref + "\n" +
		"  - schema: olm.channel\n" +
		"    package: example-operator\n" +
		"    name: fast\n" +
		"    entries:\n" +
		"      - name: example-operator.v0.3.0\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("the edit should only add lines (-want +got):\n%s", diff)
	}
	cfg, err := RenderTemplate(context.Background(), out, "", render)
	if err != nil {
		t.Fatal(err)
	}
	wantStable := []string{"example-operator.v0.1.0<[]", "example-operator.v0.2.0<example-operator.v0.1.0[]", "example-operator.v0.3.0<example-operator.v0.2.0[]"}
	if diff := cmp.Diff(wantStable, channelEntries(cfg, "stable")); diff != "" {
		t.Errorf("stable channel (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"example-operator.v0.3.0<[]"}, channelEntries(cfg, "fast")); diff != "" {
		t.Errorf("fast channel (-want +got):\n%s", diff)
	}
	if len(cfg.Bundles) != 3 {
		t.Errorf("want 3 bundles, got %d", len(cfg.Bundles))
	}

	if _, err := AddTemplateBundle(context.Background(), out, ref, TemplateAddOptions{}); err == nil || !strings.Contains(err.Error(), "already in the template") {
		t.Errorf("adding twice: want an error, got %v", err)
	}
	if _, err := AddTemplateBundle(context.Background(), out, ref, TemplateAddOptions{Channels: []string{"stable"}, Render: render}); err == nil || !strings.Contains(err.Error(), `channel "stable" already has bundle`) {
		t.Errorf("adding to a channel twice: want an error, got %v", err)
	}
}

func TestAddTemplateBundleJSON(t *testing.T) {
	in := []byte(`{"schema": "olm.semver", "stable": {"bundles": [{"image": "q/a:foo.v1.0.0"}]}}`)
	out, err := AddTemplateBundle(context.Background(), in, "q/a:foo.v1.0.1", TemplateAddOptions{Channels: []string{"stable"}})
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("a JSON template must stay JSON: %v\n%s", err, out)
	}
	cfg, err := RenderTemplate(context.Background(), out, "", fakeTemplateRenderer(nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"foo.v1.0.0<[]", "foo.v1.0.1<[foo.v1.0.0]"}, channelEntries(cfg, "stable-v1.0")); diff != "" {
		t.Errorf("stable-v1.0 (-want +got):\n%s", diff)
	}
}

// TestAddTemplateBundleBasicLayouts adds releases, one after the other, to basic templates
// of several layouts: each edit must only add lines (checked against the exact text) and
// every intermediate template must render. The blank lines between entries make sure the
// lines were inserted (re-encoding the template as a fallback would drop them).
func TestAddTemplateBundleBasicLayouts(t *testing.T) {
	type step struct {
		ref      string
		channels []string
	}
	tests := []struct {
		name         string
		in           string
		steps        []step
		want         string
		wantChannels map[string][]string
		wantBundles  int
	}{{
		name: "channel entry last",
		in: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
    defaultChannel: alpha
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0
`,
		steps: []step{{"q/foo:foo.v0.2.0", []string{"alpha"}}},
		want: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
    defaultChannel: alpha
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0
      - name: foo.v0.2.0
        replaces: foo.v0.1.0
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]"}},
		wantBundles:  2,
	}, {
		name: "channel entry last with skips and no final newline",
		in: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.2.0
        skips:
          - foo.v0.1.0`,
		steps: []step{{"q/foo:foo.v0.3.0", []string{"alpha"}}},
		want: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.2.0
        skips:
          - foo.v0.1.0
      - name: foo.v0.3.0
        replaces: foo.v0.2.0
  - schema: olm.bundle
    image: q/foo:foo.v0.3.0
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.2.0<[foo.v0.1.0]", "foo.v0.3.0<foo.v0.2.0[]"}},
		wantBundles:  3,
	}, {
		name: "bundle entries last",
		in: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0

  - schema: olm.bundle
    image: q/foo:foo.v0.1.0
`,
		steps: []step{{"q/foo:foo.v0.2.0", []string{"alpha"}}, {"q/foo:foo.v0.3.0", []string{"alpha"}}},
		want: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0
      - name: foo.v0.2.0
        replaces: foo.v0.1.0
      - name: foo.v0.3.0
        replaces: foo.v0.2.0

  - schema: olm.bundle
    image: q/foo:foo.v0.1.0
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0
  - schema: olm.bundle
    image: q/foo:foo.v0.3.0
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]", "foo.v0.3.0<foo.v0.2.0[]"}},
		wantBundles:  3,
	}, {
		// The template opack build starts a package with, then two releases.
		name: "package first",
		in: `schema: olm.template.basic
entries:
- schema: olm.package
  name: foo
  defaultChannel: alpha
`,
		steps: []step{{"q/foo:foo.v0.1.0", []string{"alpha"}}, {"q/foo:foo.v0.2.0", []string{"alpha"}}},
		want: `schema: olm.template.basic
entries:
- schema: olm.package
  name: foo
  defaultChannel: alpha
- schema: olm.bundle
  image: q/foo:foo.v0.1.0
- schema: olm.channel
  package: foo
  name: alpha
  entries:
    - name: foo.v0.1.0
    - name: foo.v0.2.0
      replaces: foo.v0.1.0
- schema: olm.bundle
  image: q/foo:foo.v0.2.0
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]"}},
		wantBundles:  2,
	}, {
		name: "JSON template",
		in: `{"schema": "olm.template.basic", "entries": [
  {"schema": "olm.package", "name": "foo", "defaultChannel": "alpha"}
]}
`,
		steps: []step{{"q/foo:foo.v0.1.0", []string{"alpha"}}, {"q/foo:foo.v0.2.0", []string{"alpha"}}},
		want: `{
  "schema": "olm.template.basic",
  "entries": [
    {
      "schema": "olm.package",
      "name": "foo",
      "defaultChannel": "alpha"
    },
    {
      "schema": "olm.bundle",
      "image": "q/foo:foo.v0.1.0"
    },
    {
      "schema": "olm.channel",
      "package": "foo",
      "name": "alpha",
      "entries": [
        {
          "name": "foo.v0.1.0"
        },
        {
          "name": "foo.v0.2.0",
          "replaces": "foo.v0.1.0"
        }
      ]
    },
    {
      "schema": "olm.bundle",
      "image": "q/foo:foo.v0.2.0"
    }
  ]
}
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]"}},
		wantBundles:  2,
	}, {
		name: "comments preserved",
		in: `# The foo catalog.
schema: olm.template.basic
entries:
  # the package
  - schema: olm.package
    name: foo # the name
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0 # first release
  # the alpha channel
  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0 # first
    # end of alpha
# end of the template
`,
		steps: []step{{"q/foo:foo.v0.2.0", []string{"alpha"}}, {"q/foo:foo.v0.3.0", []string{"alpha"}}},
		want: `# The foo catalog.
schema: olm.template.basic
entries:
  # the package
  - schema: olm.package
    name: foo # the name
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0 # first release
  # the alpha channel
  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0 # first
      - name: foo.v0.2.0
        replaces: foo.v0.1.0
      - name: foo.v0.3.0
        replaces: foo.v0.2.0
    # end of alpha
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0
  - schema: olm.bundle
    image: q/foo:foo.v0.3.0
# end of the template
`,
		wantChannels: map[string][]string{"alpha": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]", "foo.v0.3.0<foo.v0.2.0[]"}},
		wantBundles:  3,
	}, {
		name: "two channels",
		in: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
    defaultChannel: stable
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0

  - schema: olm.channel
    package: foo
    name: stable
    entries:
      - name: foo.v0.1.0
`,
		steps: []step{{"q/foo:foo.v0.2.0", []string{"stable", "alpha"}}, {"q/foo:foo.v0.3.0", []string{"alpha", "stable"}}},
		want: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
    defaultChannel: stable
  - schema: olm.bundle
    image: q/foo:foo.v0.1.0

  - schema: olm.channel
    package: foo
    name: alpha
    entries:
      - name: foo.v0.1.0
      - name: foo.v0.2.0
        replaces: foo.v0.1.0
      - name: foo.v0.3.0
        replaces: foo.v0.2.0

  - schema: olm.channel
    package: foo
    name: stable
    entries:
      - name: foo.v0.1.0
      - name: foo.v0.2.0
        replaces: foo.v0.1.0
      - name: foo.v0.3.0
        replaces: foo.v0.2.0
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0
  - schema: olm.bundle
    image: q/foo:foo.v0.3.0
`,
		wantChannels: map[string][]string{
			"alpha":  {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]", "foo.v0.3.0<foo.v0.2.0[]"},
			"stable": {"foo.v0.1.0<[]", "foo.v0.2.0<foo.v0.1.0[]", "foo.v0.3.0<foo.v0.2.0[]"},
		},
		wantBundles: 3,
	}, {
		// Lines cannot be inserted after a flow mapping whose end is on a later line than its
		// last value: the template is re-encoded instead.
		name: "flow mapping over two lines last",
		in: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
  - {schema: olm.bundle, image: q/foo:foo.v0.1.0
    }
`,
		steps: []step{{"q/foo:foo.v0.2.0", nil}},
		want: `schema: olm.template.basic
entries:
  - schema: olm.package
    name: foo
  - {schema: olm.bundle, image: 'q/foo:foo.v0.1.0'}
  - schema: olm.bundle
    image: q/foo:foo.v0.2.0
`,
		wantBundles: 2,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			render := fakeTemplateRenderer(nil)
			data := []byte(tt.in)
			for i, s := range tt.steps {
				out, err := AddTemplateBundle(ctx, data, s.ref, TemplateAddOptions{Channels: s.channels, Render: render})
				if err != nil {
					t.Fatalf("step %d (%s): %v\nbefore:\n%s", i+1, s.ref, err, data)
				}
				if _, err := RenderTemplate(ctx, out, "", render); err != nil {
					t.Fatalf("step %d (%s): the edited template does not render: %v\n%s", i+1, s.ref, err, out)
				}
				data = out
			}
			if diff := cmp.Diff(tt.want, string(data)); diff != "" {
				t.Errorf("template (-want +got):\n%s", diff)
			}
			if strings.HasPrefix(tt.in, "{") && !json.Valid(data) {
				t.Errorf("a JSON template must stay JSON:\n%s", data)
			}
			cfg, err := RenderTemplate(ctx, data, "", render)
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tt.wantChannels {
				if diff := cmp.Diff(want, channelEntries(cfg, name)); diff != "" {
					t.Errorf("channel %s (-want +got):\n%s", name, diff)
				}
			}
			if len(cfg.Bundles) != tt.wantBundles {
				t.Errorf("want %d bundles, got %d", tt.wantBundles, len(cfg.Bundles))
			}
		})
	}
}
