package usercache

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck: a folder or key someone else could write (or read, for a secret) is refused; the
// user's own 0700 folder and 0600 key are accepted.
func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		make   func(t *testing.T, p string)
		secret bool
		want   string // "" accepted, else part of the error
	}{
		{name: "own folder 0700", make: mkdir(0o700)},
		{name: "own key 0600", make: file(0o600), secret: true},
		{name: "folder writable by others", make: mkdir(0o777), want: "writable by others (mode -rwxrwxrwx)"},
		{name: "folder writable by the group", make: mkdir(0o770), want: "writable by others"},
		{name: "key 0666", make: file(0o666), secret: true, want: "writable by others"},
		{name: "key readable by others", make: file(0o644), secret: true, want: "readable by others"},
		{name: "symlink", make: func(t *testing.T, p string) { os.Symlink("/tmp", p) }, want: "is a symlink"},
		{name: "FIFO", make: fifo, want: "not a regular file or folder"},
		{name: "another user's folder", make: chowned(mkdir(0o700)), want: "belongs to uid 4242"},
		{name: "another user's key", make: chowned(file(0o600)), secret: true, want: "belongs to uid 4242"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "x")
			tt.make(t, p)
			err := Check(p, tt.secret)
			var ue *UnsafeError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tt.want != "" && (!errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), p)):
				t.Fatalf("Check = %v, want an *UnsafeError naming %s and saying %q", err, p, tt.want)
			}
		})
	}
}

// TestDir: the folder is made 0700 in XDG_CACHE_HOME; a cache inside the project, a read-only
// or missing home are refused or unavailable, never used.
func TestDir(t *testing.T) {
	t.Run("made 0700", func(t *testing.T) {
		base := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", base)
		dir, err := Dir("")
		if err != nil || dir != filepath.Join(base, "opack") {
			t.Fatalf("Dir = %q, %v", dir, err)
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Errorf("mode %v, want 0700", fi.Mode().Perm())
		}
	})
	t.Run("inside the project", func(t *testing.T) {
		project := t.TempDir()
		t.Setenv("XDG_CACHE_HOME", filepath.Join(project, ".cache"))
		_, err := Dir(project)
		var ue *UnsafeError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "inside the project") {
			t.Fatalf("Dir = %v, want an *UnsafeError", err)
		}
	})
	t.Run("no home", func(t *testing.T) {
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		_, err := Dir("")
		var ue *UnavailableError
		if !errors.As(err, &ue) {
			t.Fatalf("Dir = %v, want an *UnavailableError", err)
		}
	})
	t.Run("read-only home", func(t *testing.T) {
		if os.Geteuid() == 0 {
			// root writes through a mode; a read-only bind is what a hardened runner has, and
			// EROFS is mapped as EACCES is: shown end to end by TestE2EHostileProject.
			t.Skip("root ignores folder modes")
		}
		home := t.TempDir()
		os.Chmod(home, 0o500)
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", home)
		_, err := Dir("")
		var ue *UnavailableError
		if !errors.As(err, &ue) {
			t.Fatalf("Dir = %v, want an *UnavailableError", err)
		}
	})
}

func mkdir(mode os.FileMode) func(t *testing.T, p string) {
	return func(t *testing.T, p string) {
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // past the umask
	}
}

func file(mode os.FileMode) func(t *testing.T, p string) {
	return func(t *testing.T, p string) {
		if err := os.WriteFile(p, []byte("k"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
}

func chowned(make func(t *testing.T, p string)) func(t *testing.T, p string) {
	return func(t *testing.T, p string) {
		make(t, p)
		if err := os.Lchown(p, 4242, 4242); err != nil {
			t.Skipf("cannot give a file to another user here: %v", err)
		}
	}
}

func fifo(t *testing.T, p string) {
	if err := mkfifo(p); err != nil {
		t.Fatal(err)
	}
}
