package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/manifest"
)

// layout makes root/ (the project) and outside/ beside it; links are created with os.Symlink.
func layout(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "project"), filepath.Join(base, "outside")
	for _, d := range []string{root + "/config/sub", outside + "/dir"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range map[string]string{root + "/config/a.yaml": "a: 1\n", outside + "/secret": "SECRET\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"lnk":              "../outside",
		"abs":              outside + "/secret",
		"inside":           "config",
		"insideabs":        root + "/config",
		"config/sub/up":    "../a.yaml",
		"config/sub/climb": "../../../outside/secret",
		"loop":             "loop",
		"dotdot":           "config/sub/../../..",
		"viasub":           "config/sub/climb",
		"zero":             "/dev/zero",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func TestResolve(t *testing.T) {
	root, _ := layout(t)
	real, err := Real(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rel      string
		want     string // below the root; "" when refused
		wantLink string // the symlink named by the EscapeError
	}{
		{rel: "config/a.yaml", want: "config/a.yaml"},
		{rel: "inside/a.yaml", want: "config/a.yaml"},
		{rel: "insideabs/a.yaml", want: "config/a.yaml"},
		{rel: "config/sub/up", want: "config/a.yaml"},
		{rel: "new/dir/file", want: "new/dir/file"},
		{rel: "inside/new", want: "config/new"},
		{rel: "lnk/dir", wantLink: "lnk"},
		{rel: "lnk/new/file", wantLink: "lnk"},
		{rel: "abs", wantLink: "abs"},
		{rel: "zero", wantLink: "zero"},
		{rel: "config/sub/climb", wantLink: "config/sub/climb"},
		{rel: "viasub", wantLink: "config/sub/climb"},
		{rel: "dotdot", wantLink: "dotdot"},
		{rel: "../outside/secret"},
		{rel: "/etc/passwd"},
	}
	for _, tc := range tests {
		t.Run(tc.rel, func(t *testing.T) {
			got, err := Resolve(root, tc.rel)
			if tc.want != "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(filepath.Join(real, tc.want), got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				return
			}
			var ee *EscapeError
			if !errors.As(err, &ee) {
				t.Fatalf("Resolve(%q) = %q, %v; want an *EscapeError", tc.rel, got, err)
			}
			if diff := cmp.Diff(tc.wantLink, ee.Link); diff != "" {
				t.Errorf("link (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Resolve(root, "loop"); err == nil || !strings.Contains(err.Error(), "symlinks") {
		t.Errorf("a symlink loop: %v, want an error counting symlinks", err)
	}
}

func TestReadFile(t *testing.T) {
	root, _ := layout(t)
	tests := []struct {
		rel     string
		want    string
		wantErr string
	}{
		{rel: "config/a.yaml", want: "a: 1\n"},
		{rel: "inside/a.yaml", want: "a: 1\n"},
		{rel: "abs", wantErr: "outside the project"},
		{rel: "zero", wantErr: "outside the project"},
		{rel: "fifo", wantErr: "not a regular file (a FIFO)"},
		{rel: "config", wantErr: "not a regular file (a folder)"},
		{rel: "missing", wantErr: "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.rel, func(t *testing.T) {
			got, err := ReadFile(root, tc.rel)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ReadFile(%q) = %q, %v; want an error containing %q", tc.rel, got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := ReadFile(root, "config/a.yaml", manifest.WithMaxFileSize(2))
	var le *manifest.LimitError
	if !errors.As(err, &le) || le.File != filepath.Join(root, "config/a.yaml") {
		t.Errorf("over the limit: %v, want a *manifest.LimitError naming the file as given", err)
	}
}

func TestFS(t *testing.T) {
	root, _ := layout(t)
	fsys, err := FS(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		wantErr string
	}{
		{name: "config/a.yaml"},
		{name: "inside/a.yaml"},
		{name: "abs", wantErr: "escapes"},
		{name: "lnk/secret", wantErr: "escapes"},
		{name: "zero", wantErr: "escapes"},
		{name: "fifo", wantErr: "not a regular file (a FIFO)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fs.ReadFile(fsys, tc.name)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("ReadFile(%q): %v, want an error containing %q", tc.name, err, tc.wantErr)
			}
		})
	}
}
