package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/tmpdir"
)

func TestWriteFileReplacesSymlinkNotTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "target")
	must(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(dir, "out.yaml")
	must(t, os.Symlink(target, link))
	must(t, WriteFile(link, []byte("new"), 0o644))
	for path, want := range map[string]string{target: "keep", link: "new"} {
		got, err := os.ReadFile(path)
		must(t, err)
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("%s: %s", path, diff)
		}
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink != 0 {
		t.Error("out.yaml is still a symlink")
	}
	assertOnly(t, dir, []string{"out.yaml"})
}

func TestReplaceDir(t *testing.T) {
	for _, tc := range []struct {
		name    string
		exists  bool
		fillErr error
		want    []string
	}{
		{name: "new folder", want: []string{"new.yaml"}},
		{name: "replaces old folder", exists: true, want: []string{"new.yaml"}},
		{name: "failed fill keeps old folder", exists: true, fillErr: errors.New("boom"), want: []string{"old.yaml"}},
		{name: "failed fill creates nothing", fillErr: errors.New("boom")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, "bundle")
			if tc.exists {
				write(t, dir, "old.yaml", "old")
			}
			err := ReplaceDir(dir, func(tmp string) error {
				write(t, tmp, "new.yaml", "new")
				return tc.fillErr
			})
			if !errors.Is(err, tc.fillErr) {
				t.Fatalf("ReplaceDir() error = %v, want %v", err, tc.fillErr)
			}
			if tc.want == nil {
				assertOnly(t, parent, nil)
				return
			}
			assertOnly(t, parent, []string{"bundle"})
			assertOnly(t, dir, tc.want)
		})
	}
}

func assertOnly(t *testing.T, dir string, want []string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	must(t, err)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries of %s (-want +got):\n%s", dir, diff)
	}
}

// TestWriteRemovesStaleTemporaries: the temporary sibling a killed writer left (nobody holds its
// lock) is removed by the next write of the same output; a live writer's is not.
func TestWriteRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".opack-tmp-out.yaml-1")
	live := filepath.Join(dir, ".opack-tmp-out.yaml-2")
	staleDir := filepath.Join(dir, ".opack-tmp-folder-3")
	for _, p := range []string{stale, live} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(staleDir, "manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	release := tmpdir.Hold(live)
	defer release()
	if err := WriteFile(filepath.Join(dir, "out.yaml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceDir(filepath.Join(dir, "folder"), func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{stale: false, live: true, staleDir: false} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", p, err == nil, want)
		}
	}
}
