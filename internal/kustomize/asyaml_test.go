package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// TestCorpusResourceYAML holds resourceYAML to kustomize's own Resource.AsYAML, byte for byte, on every
// resource of every kustomization of the repositories in testdata (each folder of their config/).
func TestCorpusResourceYAML(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus-scale: every kustomization of testdata's repositories")
	}
	var dirs []string
	for _, pattern := range []string{
		"../../testdata/operator-sdk/*/config/*",
		"../../testdata/realrepos/*/input/config/*",
		"../../testdata/adoptrepos/*/input/config/*",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if _, err := os.Stat(filepath.Join(d, "kustomization.yaml")); err == nil {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 50 {
		t.Fatalf("only %d kustomizations found in testdata", len(dirs))
	}
	n := 0
	for _, dir := range dirs {
		sb, err := newSandbox(context.Background(), filesys.MakeFsOnDisk(), ProjectRoot(dir), true, false)
		if err != nil {
			t.Fatal(err)
		}
		kopts := krusty.MakeDefaultOptions()
		kopts.Reorder = krusty.ReorderOptionUnspecified
		m, err := run(kopts, sb, dir)
		if err != nil {
			continue // a folder that builds only with its parent's images or files: not this test's
		}
		for _, r := range m.Resources() {
			want, werr := r.AsYAML()
			got, gerr := resourceYAML(r)
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("%s: %s: errors differ: kustomize %v, resourceYAML %v", dir, r.CurId(), werr, gerr)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("%s: %s (-kustomize +resourceYAML):\n%s", dir, r.CurId(), diff)
			}
			n++
		}
	}
	t.Logf("%d resources of %d kustomizations identical", n, len(dirs))
	if n < 500 {
		t.Fatalf("only %d resources compared", n)
	}
}

// TestResourceYAML holds resourceYAML to kustomize's own Resource.AsYAML, byte for byte, on scalars
// whose text form decides their type or whose block style yaml.v3 rewrites.
func TestResourceYAML(t *testing.T) {
	fs := filesys.MakeFsInMemory()
	scalars := `apiVersion: v1
kind: ConfigMap
metadata:
  name: scalars
  annotations:
    quoted-number: "123"
    quoted-bool: "true"
    octal-like: "0755"
    hex-like: "0x1F"
    date-like: "2001-12-14"
    empty: ""
    tilde: "~"
    multi: |
      line one
        indented
      trailing
    folded: >
      folded
      text
    folded-more-indented: >-
      a ||
      !(
        b
      )
    literal-blank-lines: |
      one

      two
        
      three
    literal-keep: |+
      kept

    literal-indent: |2
        leading spaces
      back
    literal-tab: "a\n\tb\n"
    trailing-space-lines: "a  \nb \n"
data:
  int: "1"
  yes: "yes"
  on: "on"
  null-string: "null"
  float: "1.0"
  exp: "1e3"
  colon: "a: b"
  hash: "# not a comment"
  unicode: "caf\u00e9 \u2603"
  spaces: "  padded  "
binaryData: {}
`
	numbers := `apiVersion: example.com/v1
kind: Widget
metadata:
  name: numbers
spec:
  int: 1
  neg: -7
  big: 9007199254740993
  float: 1.5
  whole-float: 2.0
  exp: 1e3
  inf: .inf
  bool: true
  null: null
  tilde: ~
  date: 2001-12-14
  list: [1, "2", three, 4.0]
  nested: {a: {b: [{c: d}]}}
  empty-map: {}
  empty-list: []
  anchors: &a {x: 1}
  alias: *a
`
	for name, data := range map[string]string{"/k/scalars.yaml": scalars, "/k/numbers.yaml": numbers,
		"/k/kustomization.yaml": "resources:\n- scalars.yaml\n- numbers.yaml\n"} {
		if err := fs.WriteFile(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	sb, err := newSandbox(context.Background(), fs, "/", false, false)
	if err != nil {
		t.Fatal(err)
	}
	kopts := krusty.MakeDefaultOptions()
	m, err := run(kopts, sb, "/k")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Resources() {
		want, werr := r.AsYAML()
		got, gerr := resourceYAML(r)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%s: errors differ: kustomize %v, resourceYAML %v", r.CurId(), werr, gerr)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-kustomize +resourceYAML):\n%s", r.CurId(), diff)
		}
	}
}
