// Package gitrepo opens the git repository holding a folder as git itself reads it: a worktree's
// common folder, packed refs, and the object databases its alternates name (a clone made with
// `git clone --shared` or `--reference`, as CI caches make them), which go-git's plain open does
// not follow. A revision a shallow clone lacks is named, with how to fetch it.
package gitrepo

import (
	"errors"
	"fmt"
	"os"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Open opens the repository holding dir (dir or a folder above it), following worktrees and
// alternates. It returns git.ErrRepositoryNotExists (wrapped) when there is none.
func Open(dir string) (*git.Repository, error) {
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, err
	}
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return repo, nil
	}
	// Alternates name object folders anywhere (git writes absolute paths): they are read from the
	// root, not from the repository's folder, to which go-git's plain open confines them.
	s := filesystem.NewStorageWithOptions(st.Filesystem(), cache.NewObjectLRUDefault(), filesystem.Options{AlternatesFS: osfs.New("/")})
	var wt billy.Filesystem
	if w, err := repo.Worktree(); err == nil {
		wt = w.Filesystem
	}
	return git.Open(s, wt)
}

// Shallow reports whether repo is a shallow clone (its history cut at some commits).
func Shallow(repo *git.Repository) bool {
	commits, err := repo.Storer.Shallow()
	return err == nil && len(commits) > 0
}

// Explain adds to err, an error resolving or reading rev, what to do when the clone is shallow
// (the revision is likely beyond its history).
func Explain(repo *git.Repository, rev string, err error) error {
	if err == nil || !Shallow(repo) {
		return err
	}
	if errors.Is(err, plumbing.ErrReferenceNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) || os.IsNotExist(err) {
		return fmt.Errorf("%w: this clone is shallow (its history is cut; actions/checkout fetches one commit by default), so %s may be beyond it: "+
			"fetch it (git fetch --deepen=50, git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", err, rev)
	}
	return err
}
