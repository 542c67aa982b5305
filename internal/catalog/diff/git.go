package diff

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/gitrepo"
	"github.com/opack/opack/internal/manifest"
)

// ParseGitRef splits git:REV:PATH into REV and PATH. PATH is relative to the repository's top
// folder as in `git show REV:PATH`, or to dir when it starts with ./ or ../ (or is absolute).
func ParseGitRef(arg string) (rev, p string, err error) {
	rest, ok := strings.CutPrefix(arg, GitPrefix)
	if !ok {
		return "", "", fmt.Errorf("%q is not git:REV:PATH", arg)
	}
	rev, p, ok = strings.Cut(rest, ":")
	if !ok || rev == "" {
		return "", "", fmt.Errorf("%q is not git:REV:PATH (for example git:main:catalog or git:HEAD~1:.)", arg)
	}
	return rev, p, nil
}

// openGit reads the tree of git:REV:PATH from the object database of the repository holding
// dir, without a checkout and without running git.
func openGit(arg, dir string) (*side, error) {
	rev, p, err := ParseGitRef(arg)
	if err != nil {
		return nil, err
	}
	repo, err := gitrepo.Open(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("reading %s: %s is %w", arg, dir, ErrNoRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the git repository of %s for %s: %w", dir, arg, err)
	}
	rel, err := repoPath(repo, dir, p)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", arg, err)
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("resolving %q in %s: %w", rev, arg, gitrepo.Explain(repo, rev, err))
	}
	commit, err := repo.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("reading commit %s of %s: %w", h, arg, gitrepo.Explain(repo, rev, err))
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading the tree of %s: %w", arg, gitrepo.Explain(repo, rev, err))
	}
	g := &gitFS{repo: repo, files: map[string]plumbing.Hash{}}
	s := &side{arg: arg, prefix: rel, fsys: g, hashes: g.files, cleanup: func() {}, git: true}
	if rel != "." {
		sub, err := tree.Tree(rel)
		if err != nil {
			// A catalog kept as one file (several catalogs side by side in one folder).
			f, ferr := tree.File(rel)
			if ferr != nil {
				return nil, fmt.Errorf("reading %s: no folder or file %s at %s: %w", arg, rel, rev, err)
			}
			s.prefix, g.files[path.Base(rel)] = path.Dir(rel), f.Hash
			return s, nil
		}
		tree = sub
	}
	// The tree is walked without reading any blob: a file's hash is its tree entry's.
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", arg, err)
		}
		if e.Mode == filemode.Regular || e.Mode == filemode.Executable { // not symlinks, submodules, folders
			if len(g.files) == fbc.MaxFiles {
				return nil, fmt.Errorf("listing %s: %w", arg, &manifest.LimitError{What: "number of catalog files", Limit: fbc.MaxFiles})
			}
			g.files[name] = e.Hash
		}
	}
	return s, nil
}

// repoPath makes p relative to the top folder of repo's work tree (see ParseGitRef).
func repoPath(repo *git.Repository, dir, p string) (string, error) {
	if !(filepath.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")) {
		if c := path.Clean("/" + p); c != "/" {
			return c[1:], nil
		}
		return ".", nil
	}
	top, err := workTree(repo)
	if err != nil {
		return "", err
	}
	abs := p
	if !filepath.IsAbs(p) {
		d, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		abs = filepath.Join(d, p)
	}
	if a, err := filepath.EvalSymlinks(abs); err == nil {
		abs = a
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s is outside the repository %s", p, top)
	}
	return filepath.ToSlash(rel), nil
}

// gitFS is the files of a git tree, read from the object database on Open.
type gitFS struct {
	repo  *git.Repository
	files map[string]plumbing.Hash
}

func (g *gitFS) Open(name string) (fs.File, error) {
	h, ok := g.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	size, err := g.size(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if size > fbc.MaxFileSize { // from the object's header: nothing inflated yet
		return nil, &manifest.LimitError{File: name, What: "catalog file size", Limit: fbc.MaxFileSize}
	}
	b, err := g.repo.BlobObject(h)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	r, err := b.Reader()
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &gitFile{ReadCloser: r, name: name, size: b.Size}, nil
}

// sizer is go-git's object storage's cheap size lookup: the header of a loose object, the
// pack's entry of a packed one (BlobObject inflates a loose object whole to learn its size).
type sizer interface {
	EncodedObjectSize(plumbing.Hash) (int64, error)
}

// size is the size of file name's blob, read without inflating it.
func (g *gitFS) size(name string) (int64, error) {
	h, ok := g.files[name]
	if !ok {
		return 0, fs.ErrNotExist
	}
	if s, ok := g.repo.Storer.(sizer); ok {
		return s.EncodedObjectSize(h)
	}
	b, err := g.repo.BlobObject(h)
	if err != nil {
		return 0, err
	}
	return b.Size, nil
}

type gitFile struct {
	io.ReadCloser
	name string
	size int64
}

func (g *gitFile) Stat() (fs.FileInfo, error) { return gitInfo{g}, nil }

type gitInfo struct{ f *gitFile }

func (i gitInfo) Name() string       { return path.Base(i.f.name) }
func (i gitInfo) Size() int64        { return i.f.size }
func (i gitInfo) Mode() fs.FileMode  { return 0o444 }
func (i gitInfo) ModTime() time.Time { return time.Time{} }
func (i gitInfo) IsDir() bool        { return false }
func (i gitInfo) Sys() any           { return nil }

// ErrNoRepository is returned (wrapped) for git:REV:PATH when the folder is in no git repository.
var ErrNoRepository = errors.New("not in a git repository")

func workTree(repo *git.Repository) (string, error) {
	wt, err := repo.Worktree()
	if err != nil {
		return "", fmt.Errorf("finding the work tree: %w", err)
	}
	top, err := filepath.Abs(wt.Filesystem.Root())
	if err != nil {
		return "", err
	}
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	return top, nil
}
