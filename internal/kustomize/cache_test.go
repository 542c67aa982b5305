package kustomize

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/stepcache"
)

// TestBuildCache: a kept build is taken again only when every file-system question the build
// asked gets the same answer; a change anywhere else in the project keeps it. The kept output is
// replaced by a sentinel after the first build, so a hit is seen.
func TestBuildCache(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	tests := []struct {
		name   string
		change func(t *testing.T, root string)
		files  map[string][]byte // given in place of the disk's (relative to root)
		hit    bool
	}{
		{name: "unchanged", change: func(*testing.T, string) {}, hit: true},
		{name: "a file the build does not read", change: write("README.md", "changed"), hit: true},
		{name: "a file in a folder the build reads from", change: write("config/base/other.yaml", cm), hit: true},
		{name: "a resource changed", change: write("config/base/cm.yaml", strings.Replace(cm, "name: a", "name: b", 1))},
		{name: "a kustomization changed", change: write("config/overlay/kustomization.yaml", "resources:\n- ../base\nnamePrefix: y-\n")},
		{name: "a second kustomization file appears", change: write("config/base/Kustomization", "resources: []\n")},
		{name: "a resource removed", change: func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "config", "base", "cm.yaml")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a file given in place of the disk's", change: func(*testing.T, string) {},
			files: map[string][]byte{"config/base/cm.yaml": []byte(cm)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, data := range map[string]string{
				"go.mod":                            "module x\n",
				"config/base/kustomization.yaml":    "resources:\n- cm.yaml\n",
				"config/base/cm.yaml":               cm,
				"config/overlay/kustomization.yaml": "resources:\n- ../base\nnamePrefix: x-\n",
			} {
				write(rel, data)(t, root)
			}
			c, err := stepcache.OpenDir(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, "config", "overlay")
			build := func(files map[string][]byte, opts ...Option) (string, error) {
				abs := map[string][]byte{}
				for rel, data := range files {
					abs[filepath.Join(root, filepath.FromSlash(rel))] = data
				}
				out, err := Build(context.Background(), dir, append(opts, WithFiles(abs))...)
				return string(out), err
			}
			if _, err := build(nil, WithCache(c)); err != nil {
				t.Fatal(err)
			}
			o := options{root: ProjectRoot(dir)}
			plant(t, c, cacheKey(dir, &o), "sentinel")
			tc.change(t, root)
			want, werr := build(tc.files)
			if tc.hit {
				want, werr = "sentinel", nil
			}
			got, err := build(tc.files, WithCache(c))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if fmt.Sprint(werr) != fmt.Sprint(err) {
				t.Errorf("error %v, want %v", err, werr)
			}
		})
	}
}

func write(rel, data string) func(t *testing.T, root string) {
	return func(t *testing.T, root string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// plant replaces the output kept under key with out.
func plant(t *testing.T, c *stepcache.Cache, key stepcache.Key, out string) {
	t.Helper()
	data, ok := c.Get(key)
	if !ok {
		t.Fatal("the build was not kept")
	}
	var e cached
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&e); err != nil {
		t.Fatal(err)
	}
	if len(e.Journal) == 0 {
		t.Fatal("the journal is empty")
	}
	e.Out = []byte(out)
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(e); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key, b.Bytes()); err != nil {
		t.Fatal(err)
	}
}
