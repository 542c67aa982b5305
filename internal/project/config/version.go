package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/opack/opack/internal/rootfs"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/gitrepo"
)

// GitTags returns the tags pointing at HEAD in the git repository holding dir; ReadGitTags is
// the real one.
type GitTags func(ctx context.Context, dir string) ([]string, error)

// ReadGitTags reads the repository's tags with go-git: no git program runs (the repository is
// untrusted input, and git's own configuration and hooks can run programs).
func ReadGitTags(ctx context.Context, dir string) ([]string, error) {
	repo, err := gitrepo.Open(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, &NoTagError{NoRepository: true}
	}
	if err != nil {
		return nil, fmt.Errorf("opening the git repository of %s: %w", dir, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	tags, err := repo.Tags()
	if err != nil {
		return nil, fmt.Errorf("reading the tags: %w", err)
	}
	var out []string
	total := 0
	err = tags.ForEach(func(ref *plumbing.Reference) error {
		total++
		if err := ctx.Err(); err != nil {
			return err
		}
		h := ref.Hash()
		for range 8 { // an annotated tag points at its target, which may be a tag again
			tag, err := repo.TagObject(h)
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				break
			}
			if err != nil {
				return fmt.Errorf("reading the tag %s: %w", ref.Name().Short(), err)
			}
			h = tag.Target
		}
		if h == head.Hash() {
			out = append(out, ref.Name().Short())
		}
		return nil
	})
	if err == nil && len(out) == 0 {
		shallow, _ := repo.Storer.Shallow()
		return nil, &NoTagError{Tags: total, Shallow: len(shallow) > 0}
	}
	return out, err
}

// NoTagError is a checkout whose HEAD no tag points at, as CI checkouts often are: a source
// archive (no repository), a shallow clone, a clone without tags (actions/checkout fetches one
// commit and no tags by default). It says what to fetch, or to pass --version.
type NoTagError struct {
	NoRepository, Shallow bool
	Tags                  int // the tags the repository holds (none at HEAD)
}

func (e *NoTagError) Error() string {
	const fix = "pass --version (opack build --version 1.2.3), or set version in opack.yaml"
	switch {
	case e.NoRepository:
		return "the project is not in a git repository (a source archive?), so no tag gives its version: " + fix
	case e.Tags == 0 && e.Shallow:
		return "the checkout is shallow and holds no tags (actions/checkout fetches one commit and no tags unless fetch-depth: 0 or fetch-tags: true): fetch the tags (git fetch --tags), or " + fix
	case e.Tags == 0:
		return "the repository holds no tags (cloned or checked out without them?): fetch them (git fetch --tags), or " + fix
	case e.Shallow:
		return fmt.Sprintf("no tag points at HEAD (the shallow checkout holds %d other tags; a release is built from its tagged commit): check out the tag, or %s", e.Tags, fix)
	}
	return fmt.Sprintf("no tag points at HEAD (the repository holds %d other tags): tag the commit, or %s", e.Tags, fix)
}

// VersionOption configures ResolveVersion.
type VersionOption func(*versionOptions)

type versionOptions struct {
	override string
	git      GitTags
}

// WithVersion overrides every other source (the --version flag).
func WithVersion(v string) VersionOption { return func(o *versionOptions) { o.override = v } }

// WithGit replaces the git tag reader (tests).
func WithGit(g GitTags) VersionOption { return func(o *versionOptions) { o.git = g } }

// ResolveVersion returns the version being built: the override (--version), else version, else the
// versionFrom source (the highest semver git tag pointing at HEAD, or the file). The result is strict semver.
func (p *Project) ResolveVersion(ctx context.Context, opts ...VersionOption) (string, error) {
	o := versionOptions{git: ReadGitTags}
	for _, opt := range opts {
		opt(&o)
	}
	var v, from string
	switch {
	case o.override != "":
		v, from = strings.TrimPrefix(o.override, "v"), "--version"
	case p.Version != "":
		v, from = p.Version, p.File+": version"
	case p.VersionFrom.GitTag != nil:
		tag, err := p.versionFromGit(ctx, o.git)
		if err != nil {
			return "", err
		}
		v, from = tag, "git tag"
	case p.VersionFrom.File != "":
		data, err := rootfs.ReadFile(p.Dir, p.VersionFrom.File)
		if err != nil {
			return "", fmt.Errorf("reading the version (versionFrom.file): %w", err)
		}
		v, from = strings.TrimPrefix(strings.TrimSpace(string(data)), "v"), filepath.Join(p.Dir, p.VersionFrom.File)
	default:
		return "", fmt.Errorf("no version: pass --version, or set version or versionFrom in %s", p.File)
	}
	if err := CheckVersion(v); err != nil {
		return "", fmt.Errorf("%s: %w", from, err)
	}
	return v, nil
}

// versionFromGit returns the highest semver version among the tags pointing at HEAD.
func (p *Project) versionFromGit(ctx context.Context, git GitTags) (string, error) {
	prefix := *p.VersionFrom.GitTag.Prefix
	tags, err := git(ctx, p.Dir)
	if err != nil {
		return "", fmt.Errorf("reading the version from git tags: %w", err)
	}
	var versions semver.Versions
	for _, tag := range tags {
		if !strings.HasPrefix(tag, prefix) {
			continue
		}
		v := strings.TrimPrefix(tag, prefix)
		if CheckVersion(v) == nil {
			versions = append(versions, semver.MustParse(v))
		}
	}
	if len(versions) == 0 {
		return "", fmt.Errorf("reading the version from git tags: no tag %s<semver> points at HEAD; tag the commit (git tag %s1.2.3) or pass --version", prefix, prefix)
	}
	sort.Sort(versions)
	return versions[len(versions)-1].String(), nil
}
