package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	must(t, os.WriteFile(outside, []byte("x"), 0o644))
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, root string)
		want    []string
		wantErr string
		// project: list root/config with WithLinkRoot(root), as opack build lists a project's config/.
		project bool
	}{
		{name: "sorted regular files", setup: func(t *testing.T, root string) {
			write(t, root, "b.yaml", "kind: B")
			write(t, root, "a/z.yaml", "kind: Z")
			write(t, root, "a/c.yaml", "kind: C")
		}, want: []string{"a/c.yaml", "a/z.yaml", "b.yaml"}},
		{name: "symlink inside the tree", setup: func(t *testing.T, root string) {
			write(t, root, "a.yaml", "kind: A")
			must(t, os.Symlink("a.yaml", filepath.Join(root, "l.yaml")))
		}, want: []string{"a.yaml", "l.yaml"}},
		{name: "symlink leaving the tree", setup: func(t *testing.T, root string) {
			must(t, os.Symlink(outside, filepath.Join(root, "passwd.yaml")))
		}, wantErr: "passwd.yaml is a symlink to " + outside + ", outside"},
		{name: "relative symlink escaping", setup: func(t *testing.T, root string) {
			must(t, os.MkdirAll(filepath.Join(root, "m"), 0o755))
			must(t, os.Symlink("../../../../../../../etc/passwd", filepath.Join(root, "m", "x.yaml")))
		}, wantErr: "x.yaml is a symlink to /etc/passwd, outside"},
		{name: "symlink to the project", project: true, setup: func(t *testing.T, root string) {
			write(t, root, "cmd/openshift/mover_scc.yaml", "kind: SecurityContextConstraints")
			write(t, root, "config/openshift/kustomization.yaml", "resources: [mover_scc.yaml]")
			must(t, os.Symlink("../../cmd/openshift/mover_scc.yaml", filepath.Join(root, "config", "openshift", "mover_scc.yaml")))
		}, want: []string{"openshift/kustomization.yaml", "openshift/mover_scc.yaml"}},
		{name: "symlink leaving the project", project: true, setup: func(t *testing.T, root string) {
			write(t, root, "config/a.yaml", "kind: A")
			must(t, os.Symlink(outside, filepath.Join(root, "config", "passwd.yaml")))
		}, wantErr: "passwd.yaml is a symlink to " + outside + ", outside"},
		{name: "fifo refused", setup: func(t *testing.T, root string) {
			must(t, mkfifo(filepath.Join(root, "pipe")))
		}, wantErr: "pipe is not a regular file"},
		{name: "too many files", setup: func(t *testing.T, root string) {
			for _, n := range []string{"1", "2", "3", "4"} {
				write(t, root, n, "")
			}
		}, wantErr: "number of files exceeds the limit of 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			tc.setup(t, root)
			opts, tree := []Option{WithMaxFiles(3)}, root
			if tc.project {
				opts, tree = append(opts, WithLinkRoot(root)), filepath.Join(root, "config")
			}
			got, err := Files(tree, opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Files() error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Files() error = %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Files() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadTree(t *testing.T) {
	root := t.TempDir()
	write(t, root, "b.yaml", "kind: B\n---\nkind: C\n")
	write(t, root, "a.json", `{"kind":"A"}`)
	docs, err := ReadTree(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, filepath.Base(d.File)+":"+d.Object.GetKind())
	}
	if diff := cmp.Diff([]string{"a.json:A", "b.yaml:B", "b.yaml:C"}, got); diff != "" {
		t.Error(diff)
	}
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, rel)
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(data), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
