package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// TestBuildSamples checks the in-process build against kustomize v5.6.0's output for each sample.
func TestBuildSamples(t *testing.T) {
	for _, sample := range []string{"memcached-operator", "monitoring-memcached-operator", "helm-memcached-operator", "ansible-memcached-operator-v1.31"} {
		t.Run(sample, func(t *testing.T) {
			root := filepath.Join("..", "..", "testdata", "operator-sdk", sample)
			want, err := os.ReadFile(filepath.Join(root, "observed-v1.42.3", "kustomize-out.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Build(context.Background(), filepath.Join(root, "config", "manifests"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("build differs from kustomize v5.6.0 (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	fs := filesys.MakeFsInMemory()
	if err := fs.WriteFile("/app/kustomization.yaml", []byte("resources:\n- missing.yaml\n")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dir, want string }{
		{"missing folder", "/nope", "building kustomization /nope"},
		{"missing resource", "/app", "missing.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildFS(context.Background(), fs, tc.dir, WithRoot("/"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestBuildWithFiles: a file given to the build takes part in it in place of the disk's, also when
// its folder does not exist yet (the base CSV of a project that never ran generate kustomize
// manifests, as Kuadrant/developer-portal-controller), and through a symbolic link to the project.
func TestBuildWithFiles(t *testing.T) {
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
	}
	for _, tc := range []struct {
		name    string
		onDisk  map[string]string
		overlay map[string]string // relative to the project
		link    bool              // build through a symbolic link to the project
		want    []string
	}{
		{name: "replaces a file", onDisk: map[string]string{"m/base.yaml": cm("disk")}, overlay: map[string]string{"m/base.yaml": cm("overlay")}, want: []string{"overlay"}},
		{name: "a file in a missing folder", overlay: map[string]string{"m/bases/base.yaml": cm("generated")}, want: []string{"generated"}},
		{name: "through a symbolic link", overlay: map[string]string{"m/bases/base.yaml": cm("linked")}, link: true, want: []string{"linked"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			res := "base.yaml"
			if _, ok := tc.overlay["m/bases/base.yaml"]; ok {
				res = "bases/base.yaml"
			}
			files := map[string]string{"m/kustomization.yaml": "resources:\n- " + res + "\n"}
			for k, v := range tc.onDisk {
				files[k] = v
			}
			for rel, data := range files {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			dir := root
			if tc.link {
				dir = filepath.Join(t.TempDir(), "link")
				if err := os.Symlink(root, dir); err != nil {
					t.Fatal(err)
				}
			}
			overlay := map[string][]byte{}
			for rel, data := range tc.overlay {
				overlay[filepath.Join(dir, filepath.FromSlash(rel))] = []byte(data)
			}
			out, err := Build(context.Background(), filepath.Join(dir, "m"), WithRoot(dir), WithFiles(overlay))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(string(out), "\n") {
				if n, ok := strings.CutPrefix(l, "  name: "); ok {
					got = append(got, n)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("objects (-want +got):\n%s", d)
			}
			if _, err := os.Stat(filepath.Join(root, "m", "bases")); err == nil {
				t.Errorf("the build wrote to the disk")
			}
		})
	}
}

// TestBuildNotices: kustomize's deprecation notices are given by file, relative to the project
// root, once each however often the kustomization is read, in the order read, also when the build
// then fails (as kustomize prints them).
func TestBuildNotices(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"config/a/kustomization.yaml": "resources:\n- ../b\n- ../c\n",
		"config/b/kustomization.yaml": "bases:\n- ../d\n",
		"config/c/kustomization.yaml": "resources:\n- ../d\npatchesStrategicMerge:\n- p.yaml\n",
		"config/c/p.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\ndata:\n  k: v\n",
		"config/d/kustomization.yaml": "resources:\n- cm.yaml\nnamePrefix: x-\n",
		"config/d/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n",
	}
	for rel, data := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	_, err := Build(context.Background(), filepath.Join(root, "config", "a"), WithRoot(root), WithNotices(func(n string) { got = append(got, n) }))
	if err == nil {
		t.Fatal("the same ConfigMap reached twice: the build must fail")
	}
	want := []string{
		"config/b/kustomization.yaml: 'bases' is deprecated. Please use 'resources' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
		"config/c/kustomization.yaml: 'patchesStrategicMerge' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
}
