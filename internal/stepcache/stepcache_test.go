package stepcache

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestTreeDigest: the digest of a tree changes with any file's content, mode, a new or removed
// file or folder, a symlink's target, and the revisions of its git folder (HEAD, refs), and
// stays when nothing changed (the stat index giving the same sums as hashing).
func TestTreeDigest(t *testing.T) {
	c, err := OpenDir(filepath.Join(t.TempDir(), "steps"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(rel, data string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "a\n")
	write("config/b.yaml", "b\n")
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".git/refs/heads/main", "1111\n")
	write(".git/objects/xx", "object\n")
	digest := func() Key {
		t.Helper()
		k := NewKey("test")
		if err := TreeDigest(k, dir, c); err != nil {
			t.Fatal(err)
		}
		return k.Sum()
	}
	old := time.Now().Add(-time.Hour) // not racy: the stat index keeps them
	for _, p := range []string{"a.yaml", "config/b.yaml"} {
		os.Chtimes(filepath.Join(dir, p), old, old)
	}
	first := digest()
	if again := digest(); again != first {
		t.Fatal("the digest of an unchanged tree changed")
	}
	for _, change := range []struct {
		name string
		do   func()
	}{
		{"content, same size and time", func() {
			write("a.yaml", "z\n")
			os.Chtimes(filepath.Join(dir, "a.yaml"), old, old)
		}},
		{"mode", func() { os.Chmod(filepath.Join(dir, "config/b.yaml"), 0o755) }},
		{"new file", func() { write("config/c.yaml", "c\n") }},
		{"new folder", func() { os.Mkdir(filepath.Join(dir, "empty"), 0o755) }},
		{"symlink", func() { os.Symlink("a.yaml", filepath.Join(dir, "l")) }},
		{"symlink target", func() { os.Remove(filepath.Join(dir, "l")); os.Symlink("config", filepath.Join(dir, "l")) }},
		{"git ref", func() { write(".git/refs/heads/main", "2222\n") }},
		{"git HEAD", func() { write(".git/HEAD", "ref: refs/heads/other\n") }},
	} {
		before := digest()
		change.do()
		if after := digest(); after == before {
			t.Errorf("%s: the digest did not change", change.name)
		}
	}
	before := digest()
	write(".git/objects/yy", "another object\n")
	if digest() != before {
		t.Error("a git object changed the digest (only revisions count)")
	}
}

// TestTreeDigestWorktree: a worktree's revisions (its HEAD in the git folder its .git file
// names) are part of its digest.
func TestTreeDigestWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	base := t.TempDir()
	src := filepath.Join(base, "src")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(src, 0o755)
	git(src, "init", "-q", "-b", "main", ".")
	os.WriteFile(filepath.Join(src, "f"), []byte("1"), 0o644)
	git(src, "add", "f")
	git(src, "commit", "-q", "-m", "one")
	wt := filepath.Join(base, "wt")
	git(src, "worktree", "add", "-q", "-b", "side", wt)
	digest := func() Key {
		k := NewKey("test")
		if err := TreeDigest(k, wt, nil); err != nil {
			t.Fatal(err)
		}
		return k.Sum()
	}
	before := digest()
	git(wt, "commit", "-q", "--allow-empty", "-m", "two")
	if digest() == before {
		t.Error("a commit in the worktree did not change its digest")
	}
}

// TestCacheEntries: an entry reads back as stored; a damaged, truncated or foreign one is a
// miss and is removed; a nil cache misses and keeps nothing.
func TestCacheEntries(t *testing.T) {
	c, err := OpenDir(filepath.Join(t.TempDir(), "steps"))
	if err != nil {
		t.Fatal(err)
	}
	k := NewKey("test").String("x").Sum()
	if err := c.Put(k, []byte("payload")); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(k); !ok || string(got) != "payload" {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	p := c.path(k)
	for _, damage := range []func(){
		func() { data, _ := os.ReadFile(p); data[len(data)-1] ^= 1; os.WriteFile(p, data, 0o600) },
		func() { data, _ := os.ReadFile(p); os.WriteFile(p, data[:10], 0o600) },
		func() { os.WriteFile(p, []byte("planted by someone"), 0o600) },
	} {
		c.Put(k, []byte("payload"))
		damage()
		if _, ok := c.Get(k); ok {
			t.Error("a damaged entry was read")
		}
		if _, err := os.Stat(p); err == nil {
			t.Error("a damaged entry was kept")
		}
	}
	var none *Cache
	if none.Put(k, []byte("x")) != nil {
		t.Error("a nil cache failed to keep nothing")
	}
	if _, ok := none.Get(k); ok {
		t.Error("a nil cache hit")
	}
}
