package makefile

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileMakefiles reads Makefiles a pull request could plant (opack init reads the
// repository's Makefile): nothing outside the project is read, no shape takes unbounded time or
// memory, and what make refuses is an error naming the line.
func TestHostileMakefiles(t *testing.T) {
	doubling := func(n int) string {
		var b strings.Builder
		b.WriteString("A0 = xxxxxxxxxxxxxxxx\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "A%d = $(A%d)$(A%d)\n", i, i-1, i-1)
		}
		return b.String() + fmt.Sprintf("BUNDLE_IMG ?= $(A%d)\n", n)
	}
	tests := []struct {
		name    string
		text    string
		files   map[string]string // beside the Makefile; "../x" lands beside the project
		setup   func(t *testing.T, dir string)
		wantErr string // Read fails with this
		check   func(t *testing.T, f *File)
	}{
		{name: "include of the process environment", text: "include /proc/self/environ\nBUNDLE_IMG ?= $(HOME)\n",
			check: func(t *testing.T, f *File) {
				wantProblem(t, f, "outside the project")
				if v := f.Value("BUNDLE_IMG"); v.Text != "" || !strings.Contains(v.Unresolved, "not set in the Makefile") {
					t.Errorf("BUNDLE_IMG = %+v, want unresolved", v)
				}
			}},
		{name: "include of a file beside the project", text: "include ../outside/secrets.mk\nBUNDLE_IMG ?= $(SECRET)\n",
			files: map[string]string{"../outside/secrets.mk": "SECRET = hunter2\n"},
			check: func(t *testing.T, f *File) {
				wantProblem(t, f, "outside the project")
				if v := f.Value("BUNDLE_IMG"); strings.Contains(v.Text, "hunter2") {
					t.Errorf("BUNDLE_IMG = %+v: read outside the project", v)
				}
			}},
		{name: "optional include of a file beside the project", text: "-include ../outside/secrets.mk\nBUNDLE_IMG ?= $(SECRET)\n",
			files: map[string]string{"../outside/secrets.mk": "SECRET = hunter2\n"},
			check: func(t *testing.T, f *File) {
				if v := f.Value("BUNDLE_IMG"); strings.Contains(v.Text, "hunter2") {
					t.Errorf("BUNDLE_IMG = %+v: read outside the project", v)
				}
			}},
		{name: "include through a symlink out", text: "include lnk/secrets.mk\nX = $(SECRET)\n",
			files: map[string]string{"../outside/secrets.mk": "SECRET = hunter2\n"},
			setup: func(t *testing.T, dir string) { os.Symlink("../outside", filepath.Join(dir, "lnk")) },
			check: func(t *testing.T, f *File) {
				wantProblem(t, f, "outside the project")
				if strings.Contains(f.Value("X").Text, "hunter2") {
					t.Error("read outside the project")
				}
			}},
		{name: "include of /dev/zero through a symlink", text: "include zero.mk\n",
			setup: func(t *testing.T, dir string) { os.Symlink("/dev/zero", filepath.Join(dir, "zero.mk")) },
			check: func(t *testing.T, f *File) { wantProblem(t, f, "outside the project") }},
		{name: "include of a FIFO", text: "include fifo.mk\n",
			setup: func(t *testing.T, dir string) { syscall.Mkfifo(filepath.Join(dir, "fifo.mk"), 0o644) },
			check: func(t *testing.T, f *File) { wantProblem(t, f, "not a regular file (a FIFO)") }},
		// $(shell cat FILE) reads FILE as an include is read: inside the project, a regular file.
		{name: "shell cat of a file beside the project", text: "V := $(shell cat ../outside/secret)\nW := $(shell cat lnk/secret)\n",
			files: map[string]string{"../outside/secret": "hunter2\n"},
			setup: func(t *testing.T, dir string) { os.Symlink("../outside", filepath.Join(dir, "lnk")) },
			check: func(t *testing.T, f *File) {
				for _, name := range []string{"V", "W"} {
					if v := f.Value(name); v.Text != "" || !strings.Contains(v.Unresolved, "runs a shell command") {
						t.Errorf("%s = %+v, want unread", name, v)
					}
				}
			}},
		{name: "shell cat of a FIFO and of /dev/zero", text: "V := $(shell cat fifo)\nW := $(shell cat zero)\n",
			setup: func(t *testing.T, dir string) {
				syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644)
				os.Symlink("/dev/zero", filepath.Join(dir, "zero"))
			},
			check: func(t *testing.T, f *File) {
				for _, name := range []string{"V", "W"} {
					if v := f.Value(name); v.Text != "" || !strings.Contains(v.Unresolved, "runs a shell command") {
						t.Errorf("%s = %+v, want unread", name, v)
					}
				}
			}},
		{name: "40 doublings", text: doubling(40), check: func(t *testing.T, f *File) {
			if v := f.Value("BUNDLE_IMG"); v.Text != "" || !strings.Contains(v.Unresolved, "larger than opack reads") {
				t.Errorf("BUNDLE_IMG = %.100v, want unresolved as too large", v)
			}
		}},
		{name: "20 doublings are read", text: doubling(12),
			check: func(t *testing.T, f *File) {
				if n := len(f.Value("BUNDLE_IMG").Text); n != 16<<12 {
					t.Errorf("BUNDLE_IMG has %d bytes, want %d", n, 16<<12)
				}
			}},
		{name: "doubling of empty values", text: strings.ReplaceAll(doubling(40), "xxxxxxxxxxxxxxxx", ""), check: func(t *testing.T, f *File) {
			if v := f.Value("BUNDLE_IMG"); v.Text != "" || !strings.Contains(v.Unresolved, "larger than opack reads") {
				t.Errorf("BUNDLE_IMG = %.100v, want unresolved as too large", v)
			}
		}},
		{name: "simple doublings", text: strings.ReplaceAll(doubling(40), " = ", " := "), check: func(t *testing.T, f *File) {
			if v := f.Value("BUNDLE_IMG"); v.Text != "" || !strings.Contains(v.Unresolved, "larger than opack reads") {
				t.Errorf("BUNDLE_IMG = %.100v, want unresolved as too large", v)
			}
		}},
		{name: "many lines of large simple values", text: "A0 := " + strings.Repeat("x", 1000) + "\n" + strings.Repeat("A := $(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)$(A0)\n", 100000),
			wantErr: "expand to more than"},
		{name: "a line over 1 MiB", text: "A = 1\nB = " + strings.Repeat("x", 2<<20) + "\nC = 3\n", wantErr: "Makefile:2: "},
		{name: "continuations over 1 MiB", text: "A = 1\nB = " + strings.Repeat("xxxxxxx\\\n", 300<<10) + "\n", wantErr: "Makefile:2: a logical line longer than"},
		{name: "ifeq without endif", text: "ifeq (a,a)\nA = 1\n", wantErr: "Makefile:1: ifeq (a,a): missing 'endif'"},
		{name: "stray endif", text: "A = 1\nendif\n", wantErr: "Makefile:2: endif: extraneous 'endif'"},
		{name: "stray else", text: "else\n", wantErr: "Makefile:1: else: extraneous 'else'"},
		{name: "included file with an open ifdef", text: "-include a.mk\nendif\n", files: map[string]string{"a.mk": "ifdef X\n"},
			wantErr: "a.mk:1: ifdef X: missing 'endif'"},
		{name: "the Makefile is a symlink out", text: "",
			setup: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "Makefile"))
				os.Symlink("/etc/passwd", filepath.Join(dir, "Makefile"))
			},
			wantErr: "outside the project"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "project")
			files := map[string]string{"Makefile": tc.text}
			for n, d := range tc.files {
				files[n] = d
			}
			for name, data := range files {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			start := time.Now()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			f, err := Read(filepath.Join(dir, "Makefile"))
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
				t.Errorf("reading allocated %d MiB", alloc>>20)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("reading took %v", d)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Read: %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, f)
		})
	}
}

func wantProblem(t *testing.T, f *File, sub string) {
	t.Helper()
	for _, p := range f.Problems {
		if strings.Contains(p, sub) {
			return
		}
	}
	t.Errorf("problems %q, want one containing %q", f.Problems, sub)
}
