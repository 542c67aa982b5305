package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

func channelEntries(cfg *DeclarativeConfig, name string) []string {
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
