package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGenerateRefusesEmptyInput checks that an empty input (what a failed `kustomize build` piped
// in without pipefail gives) is an error that leaves the bundle on disk as it was, instead of a
// CSV without deployments replacing it.
func TestGenerateRefusesEmptyInput(t *testing.T) {
	emptyDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(emptyDir, "kustomization.yaml"), []byte("resources: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		mut  func(*Options)
		want string
	}{
		{"empty stdin", func(o *Options) { o.Input = strings.NewReader("") },
			"no objects on stdin: the input is empty (did the command piped in, e.g. kustomize build, fail?); nothing was written"},
		{"only separators and comments", func(o *Options) { o.Input = strings.NewReader("---\n# nothing\n---\n") },
			"no objects on stdin: the input is empty (did the command piped in, e.g. kustomize build, fail?); nothing was written"},
		{"named stream", func(o *Options) { o.Input, o.InputName = strings.NewReader(""), "out.yaml" },
			"no objects in out.yaml: the input is empty (did the command piped in, e.g. kustomize build, fail?); nothing was written"},
		{"input dir with only a kustomization", func(o *Options) { o.Input, o.InputDir = nil, emptyDir },
			"no objects in --input-dir " + emptyDir + ": it holds no Kubernetes manifests; nothing was written"},
		{"kustomization with no resources", func(o *Options) { o.Input, o.KustomizeDir = nil, emptyDir },
			"kustomize build " + emptyDir + " gave no objects: list the operator's manifests under resources in its kustomization"},
	}
	out, _ := generateSample(t, "memcached-operator", true, nil)
	before := snapshot(t, out)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := regenerate(t, "memcached-operator", out, tt.mut)
			got := "<nil>"
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, snapshot(t, out)); diff != "" {
				t.Errorf("a refused run changed the bundle (-before +after):\n%s", diff)
			}
		})
	}
}

// TestGenerateReviewWarnings checks the warnings that name what was looked for or what is wrong.
func TestGenerateReviewWarnings(t *testing.T) {
	tests := []struct {
		name   string
		mut    func(*Options)
		prefix string // the warnings starting with it are compared
		want   []string
	}{
		{"default channel not among the channels", func(o *Options) { o.Channels, o.DefaultChannel = "alpha", "beta" }, "default channel",
			[]string{`default channel "beta" is not one of the bundle's channels (alpha): the package's default channel must hold a bundle, so add it to --channels unless another bundle of the package is in it`}},
		{"default channel among the channels", func(o *Options) { o.Channels, o.DefaultChannel = "alpha,beta", "beta" }, "default channel", nil},
		{"package without a base CSV", func(o *Options) { o.Package = "other" }, "no base",
			[]string{`no base ClusterServiceVersion for package "other": looked for a CSV named other.* in the input; building one from defaults and ignoring the input's ClusterServiceVersion memcached-operator.v0.0.0 (its name must start with "other.": check --package or rename the base CSV)`}},
		{"no deployment in the input", func(o *Options) {
			o.Input = strings.NewReader("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n")
			o.KustomizeDir = filepath.Join(t.TempDir(), "none")
		}, "",
			[]string{
				`no base ClusterServiceVersion for package "memcached-operator": looked for a CSV named memcached-operator.* in the input and for ` + "%KDIR%" + `; building one from defaults`,
				"the input has no Deployment: the ClusterServiceVersion's install strategy has no deployments, so OLM cannot install the bundle (the operator's Deployment must be among the input objects)",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kdir string
			res, err := regenerate(t, "memcached-operator", t.TempDir(), func(o *Options) {
				tt.mut(o)
				kdir = filepath.Join(o.KustomizeDir, "bases", o.Package+".clusterserviceversion.yaml")
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range res.Warnings {
				if strings.HasPrefix(w, tt.prefix) && !strings.HasPrefix(w, "ClusterServiceVersion validation") {
					got = append(got, w)
				}
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, strings.ReplaceAll(w, "%KDIR%", kdir))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVersionHint(t *testing.T) {
	tests := []struct{ version, want string }{
		{"v0.0.1", `--version "v0.0.1" is not a semantic version: drop the leading v (--version 0.0.1)`},
		{"1.0", `--version "1.0" is not a semantic version (e.g. 0.0.1): No Major.Minor.Patch elements found`},
		{"v1.0", `--version "v1.0" is not a semantic version (e.g. 0.0.1): No Major.Minor.Patch elements found`},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			_, err := Generate(context.Background(), Options{Package: "p", Version: tt.version, ProjectDir: t.TempDir()})
			got := "<nil>"
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
