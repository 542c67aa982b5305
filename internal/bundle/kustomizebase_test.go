package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
)

// TestGenerateBaseGolden: the default base equals the one operator-sdk scaffolded for the helm
// sample, and an existing base (go/v4, with descriptors) is rewritten byte for byte.
func TestGenerateBaseGolden(t *testing.T) {
	for _, tc := range []struct {
		sample   string
		existing bool
	}{
		{"helm-memcached-operator", false},
		{"memcached-operator", true},
		{"monitoring-memcached-operator", true},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			want, err := os.ReadFile(BaseFile(filepath.Join(sampleDir(tc.sample), "config", "manifests"), "memcached-operator"))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "config", "manifests")
			o := BaseOptions{Package: "memcached-operator", OutputDir: out}
			if tc.existing {
				o.InputDir = filepath.Join(sampleDir(tc.sample), "config", "manifests")
			}
			res, err := GenerateBase(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Existed != tc.existing {
				t.Errorf("Existed = %v", res.Existed)
			}
			got, _ := os.ReadFile(BaseFile(out, "memcached-operator"))
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("base differs (-want +got):\n%s", diff)
			}
			kust, _ := os.ReadFile(filepath.Join(out, "kustomization.yaml"))
			if !strings.Contains(string(kust), "- bases/memcached-operator.clusterserviceversion.yaml\n") {
				t.Errorf("kustomization.yaml:\n%s", kust)
			}
		})
	}
}

func TestGenerateBaseMetadataAndCheck(t *testing.T) {
	out := filepath.Join(t.TempDir(), "manifests")
	o := BaseOptions{Package: "my-op", OutputDir: out, DisplayName: "My Op", Description: "Does things.",
		ProviderName: "ACME", ProviderURL: "https://acme.example", Keywords: []string{"a", "b"},
		Maintainers: []v1alpha1.Maintainer{{Name: "Jo", Email: "jo@acme.example"}}, Capabilities: "Seamless Upgrades"}
	if _, err := GenerateBase(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(BaseFile(out, "my-op"))
	for _, want := range []string{"displayName: My Op\n", "description: Does things.\n", "name: ACME\n", "url: https://acme.example\n",
		"  - a\n  - b\n", "  - email: jo@acme.example\n    name: Jo\n", "capabilities: Seamless Upgrades\n", "name: my-op.v0.0.0\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("base lacks %q:\n%s", want, got)
		}
	}
	res, err := GenerateBase(context.Background(), BaseOptions{Package: "my-op", OutputDir: out, Check: true})
	if err != nil || res.Changed {
		t.Errorf("check after generate: changed=%v err=%v", res != nil && res.Changed, err)
	}
	res, _ = GenerateBase(context.Background(), BaseOptions{Package: "my-op", OutputDir: out, Check: true, DisplayName: "Other"})
	if !res.Changed {
		t.Errorf("check did not notice a new display name")
	}
}
