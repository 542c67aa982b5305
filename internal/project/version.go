package project

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
)

// GitRunner runs git with args in dir and returns its standard output; ExecGit is the real one.
type GitRunner func(ctx context.Context, dir string, args ...string) ([]byte, error)

// ExecGit runs the git binary.
func ExecGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("running git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// VersionOption configures ResolveVersion.
type VersionOption func(*versionOptions)

type versionOptions struct {
	override string
	git      GitRunner
}

// WithVersion overrides every other source (the --version flag).
func WithVersion(v string) VersionOption { return func(o *versionOptions) { o.override = v } }

// WithGit replaces the git runner (tests).
func WithGit(g GitRunner) VersionOption { return func(o *versionOptions) { o.git = g } }

// ResolveVersion returns the version being built: the override (--version), else version, else the
// versionFrom source (the highest semver git tag pointing at HEAD, or the file). The result is strict semver.
func (p *Project) ResolveVersion(ctx context.Context, opts ...VersionOption) (string, error) {
	o := versionOptions{git: ExecGit}
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
		path := filepath.Join(p.Dir, p.VersionFrom.File)
		data, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("reading the version (versionFrom.file): %w", err)
		}
		v, from = strings.TrimPrefix(strings.TrimSpace(string(data)), "v"), path
	default:
		return "", fmt.Errorf("no version: pass --version, or set version or versionFrom in %s", p.File)
	}
	if err := CheckVersion(v); err != nil {
		return "", fmt.Errorf("%s: %w", from, err)
	}
	return v, nil
}

// versionFromGit returns the highest semver version among the tags pointing at HEAD.
func (p *Project) versionFromGit(ctx context.Context, git GitRunner) (string, error) {
	prefix := *p.VersionFrom.GitTag.Prefix
	out, err := git(ctx, p.Dir, "tag", "--points-at", "HEAD")
	if err != nil {
		return "", fmt.Errorf("reading the version from git tags: %w", err)
	}
	var versions semver.Versions
	for _, tag := range strings.Fields(string(out)) {
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
