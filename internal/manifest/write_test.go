package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
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
