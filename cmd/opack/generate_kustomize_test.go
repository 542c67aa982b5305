package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/opack/opack/internal/bundle"
)

func TestGenerateKustomizeManifests(t *testing.T) {
	dir := copySample(t, "helm-memcached-operator")
	base := filepath.Join(dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml")
	if code, _, stderr := runOpack(t, "", "generate", "kustomize-manifests", "--check"); code != 0 {
		t.Fatalf("--check on the scaffolded base: exit %d\n%s", code, stderr)
	}
	code, _, stderr := runOpack(t, "", "generate", "kustomize-manifests", "-q", "--display-name", "Memcached",
		"--maintainers", "Jo Doe <jo@acme.example>", "--keywords", "cache,memcached")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got, _ := os.ReadFile(base)
	for _, want := range []string{"displayName: Memcached\n", "  - email: jo@acme.example\n    name: Jo Doe\n", "  - cache\n  - memcached\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("base lacks %q:\n%s", want, got)
		}
	}
	if code, _, _ := runOpack(t, "", "generate", "kustomize-manifests", "--check", "--display-name", "Other"); code != 1 {
		t.Errorf("--check with a change: exit %d, want 1", code)
	}
	if code, _, stderr := runOpack(t, "", "generate", "kustomize-manifests", "--maintainers", "nobody"); code != 2 || !strings.Contains(stderr, "Name <email>") {
		t.Errorf("bad --maintainers: exit %d, %s", code, stderr)
	}
	// the regenerated base still drives bundle generation
	if code, _, stderr := runOpack(t, "", "generate", "bundle", "--version", "0.0.1", "-q"); code != 0 {
		t.Fatalf("generate bundle: exit %d\n%s", code, stderr)
	}
}

func TestKustomizePrompt(t *testing.T) {
	var o bundle.BaseOptions
	o.ProviderName = "From Flag"
	in := strings.NewReader("My Op\nDoes things.\nhttps://acme.example\na, b\nJo <jo@acme.example>, Al <al@acme.example>\n")
	var out strings.Builder
	if err := prompt(in, &out, &o); err != nil {
		t.Fatal(err)
	}
	want := bundle.BaseOptions{DisplayName: "My Op", Description: "Does things.", ProviderName: "From Flag",
		ProviderURL: "https://acme.example", Keywords: []string{"a", "b"},
		Maintainers: []v1alpha1.Maintainer{{Name: "Jo", Email: "jo@acme.example"}, {Name: "Al", Email: "al@acme.example"}}}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if strings.Contains(out.String(), "Provider's name") {
		t.Errorf("asked for a value given as a flag:\n%s", out.String())
	}
}
