package rootfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve plants symlinks with fuzzed targets in a project beside an outside folder and
// resolves a fuzzed path: whatever Resolve returns lies inside the root once every symlink is
// followed by the kernel (filepath.EvalSymlinks on the part that exists).
func FuzzResolve(f *testing.F) {
	for _, s := range [][3]string{
		{"../outside", "config", "a/b"}, {"/", "..", "a/x/y"}, {"b/../../outside", "a", "b/c"},
		{"a/../../project/a", "../project", "a/../b"}, {"a", "b", "a"}, {".", "..", "b/b/b"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, ta, tb, rel string) {
		if len(ta)+len(tb)+len(rel) > 200 || strings.ContainsRune(ta+tb+rel, 0) {
			return
		}
		base := t.TempDir()
		root, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
		for _, d := range []string{root + "/config", outside + "/dir"} {
			os.MkdirAll(d, 0o755)
		}
		os.Symlink(ta, filepath.Join(root, "a"))
		os.Symlink(tb, filepath.Join(root, "config", "b"))
		got, err := Resolve(root, rel)
		if err != nil {
			return
		}
		real, _ := Real(root)
		existing := got
		for {
			if _, err := os.Lstat(existing); err == nil || existing == "/" {
				break
			}
			existing = filepath.Dir(existing)
		}
		resolved, err := filepath.EvalSymlinks(existing)
		if err != nil {
			return // a loop the kernel refuses too
		}
		if !within(real, resolved) {
			t.Fatalf("Resolve(%q) = %q, which the kernel resolves to %q outside %q (a -> %q, config/b -> %q)", rel, got, resolved, real, ta, tb)
		}
	})
}
