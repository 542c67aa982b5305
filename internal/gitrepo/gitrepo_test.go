package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestOpen: the revisions git reads in a clone made with --shared or --reference (objects in
// another repository, named by objects/info/alternates), in a worktree, with packed refs, are
// read; a revision beyond a shallow clone's history is named with how to fetch it.
func TestOpen(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found (the repositories are made with it)")
	}
	base := t.TempDir()
	src := filepath.Join(base, "src")
	run(t, base, "git", "init", "-q", "-b", "main", src)
	for i, content := range []string{"one\n", "two\n"} {
		if err := os.WriteFile(filepath.Join(src, "f.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, src, "git", "add", "f.txt")
		run(t, src, "git", "commit", "-q", "-m", "c"+string(rune('0'+i)))
	}
	run(t, src, "git", "gc", "-q")
	run(t, base, "git", "clone", "-q", "--shared", src, filepath.Join(base, "shared"))
	run(t, base, "git", "clone", "-q", "--reference", src, "file://"+src, filepath.Join(base, "reference"))
	run(t, src, "git", "worktree", "add", "-q", filepath.Join(base, "worktree"), "HEAD~1")
	run(t, base, "git", "clone", "-q", "--depth", "1", "file://"+src, filepath.Join(base, "shallow"))
	run(t, filepath.Join(base, "shallow"), "git", "pack-refs", "--all")
	for _, tc := range []struct{ dir, rev, want string }{
		{"shared", "HEAD~1", ""},
		{"reference", "HEAD~1", ""},
		{"worktree", "main~1", ""},
		{"shallow", "HEAD", ""},
		{"shallow", "HEAD~1", "this clone is shallow"},
	} {
		t.Run(tc.dir+" "+tc.rev, func(t *testing.T) {
			repo, err := Open(filepath.Join(base, tc.dir))
			if err != nil {
				t.Fatal(err)
			}
			h, err := repo.ResolveRevision(plumbing.Revision(tc.rev))
			if err == nil {
				_, err = repo.CommitObject(*h)
			}
			err = Explain(repo, tc.rev, err)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("%s: %v", tc.rev, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("%s: error %v, want %q", tc.rev, err, tc.want)
			}
		})
	}
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}
