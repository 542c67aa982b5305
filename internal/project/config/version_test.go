package config

import (
	"sort"

	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolveVersion(t *testing.T) {
	fakeGit := func(out string, err error) GitTags {
		return func(context.Context, string) ([]string, error) { return strings.Fields(out), err }
	}
	tests := []struct {
		name    string
		extra   string // appended to minimal
		file    string // VERSION content, when written
		opts    []VersionOption
		want    string
		wantErr string
	}{
		{name: "literal", extra: "version: 1.2.3\n", want: "1.2.3"},
		{name: "flag wins", extra: "version: 1.2.3\n", opts: []VersionOption{WithVersion("v2.0.0")}, want: "2.0.0"},
		{name: "bad flag", opts: []VersionOption{WithVersion("2.0")}, wantErr: `--version: version "2.0" is not a semantic version`},
		{name: "none", wantErr: "no version: pass --version, or set version or versionFrom in opack.yaml"},
		{name: "file", extra: "versionFrom:\n  file: VERSION\n", file: "v0.4.1\n", want: "0.4.1"},
		{name: "bad file", extra: "versionFrom:\n  file: VERSION\n", file: "0.4\n", wantErr: `VERSION: version "0.4" is not a semantic version`},
		{name: "missing file", extra: "versionFrom:\n  file: VERSION\n", wantErr: "reading the version (versionFrom.file)"},
		{name: "git tags", extra: "versionFrom:\n  gitTag: {}\n", opts: []VersionOption{WithGit(fakeGit("v1.9.0\nrelease-2\nv1.10.0\nv1.10.0-rc.1\n", nil))}, want: "1.10.0"},
		{name: "git prefix", extra: "versionFrom:\n  gitTag: {prefix: op/v}\n", opts: []VersionOption{WithGit(fakeGit("v9.0.0\nop/v0.3.0\n", nil))}, want: "0.3.0"},
		{name: "no git tag", extra: "versionFrom:\n  gitTag: {}\n", opts: []VersionOption{WithGit(fakeGit("", nil))}, wantErr: "no tag v<semver> points at HEAD"},
		{name: "git fails", extra: "versionFrom:\n  gitTag: {}\n", opts: []VersionOption{WithGit(fakeGit("", errors.New("not a git repository")))}, wantErr: "reading the version from git tags: not a git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.file != "" {
				if err := writeFile(filepath.Join(dir, "VERSION"), tt.file); err != nil {
					t.Fatal(err)
				}
			}
			p := mustDecode(t, minimal+tt.extra)
			p.Dir = dir
			got, err := p.ResolveVersion(context.Background(), tt.opts...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %q, %v; want error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestResolveVersionRealGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// the repository is made by the git program and read by go-git (ReadGitTags): no git runs
	// in opack. An annotated tag, a lightweight one, a tag of an older commit, and packed refs.
	run("init", "-q")
	run("commit", "-q", "--allow-empty", "-m", "one")
	run("tag", "v0.9.0")
	run("commit", "-q", "--allow-empty", "-m", "two")
	run("tag", "v0.1.0")
	run("tag", "-a", "-m", "annotated", "v0.2.0")
	run("pack-refs", "--all")
	run("tag", "-a", "-m", "annotated", "other-1.0.0")
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tags, err := ReadGitTags(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(tags)
	if diff := cmp.Diff([]string{"other-1.0.0", "v0.1.0", "v0.2.0"}, tags); diff != "" {
		t.Errorf("tags at HEAD (-want +got):\n%s", diff)
	}
	p := mustDecode(t, minimal+"versionFrom:\n  gitTag: {}\n")
	p.Dir = sub
	if got, err := p.ResolveVersion(context.Background()); err != nil || got != "0.2.0" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func mustDecode(t *testing.T, y string) *Project {
	t.Helper()
	p, err := Decode([]byte(y), "opack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestImages(t *testing.T) {
	tests := []struct {
		bundle, catalog string
		wantB, wantC    string
		errB, errC      string
	}{
		{bundle: "quay.io/me/op-bundle", catalog: "quay.io/me/op-catalog", wantB: "quay.io/me/op-bundle:v1.2.3", wantC: "quay.io/me/op-catalog:v1.2.3"},
		{bundle: "quay.io/me/op-bundle:{{.Version}}", catalog: "quay.io/me/op-catalog:latest", wantB: "quay.io/me/op-bundle:1.2.3", wantC: "quay.io/me/op-catalog:latest"},
		{bundle: "registry.local:5000/{{.Package}}-bundle:v{{.Version}}", catalog: "quay.io/me/c@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			wantB: "registry.local:5000/memcached-operator-bundle:v1.2.3", wantC: "quay.io/me/c@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{bundle: "quay.io/me/op-bundle:v1", catalog: "quay.io/me/{{.Nope}}", errB: "has a tag or digest", errC: "executing template"},
		{bundle: "quay.io/me/op-bundle:{{.Version", catalog: "Not A Ref", errB: "parsing template", errC: "is not an image reference"},
	}
	for _, tt := range tests {
		t.Run(tt.bundle, func(t *testing.T) {
			p := &Project{Package: "memcached-operator", Bundle: Bundle{Image: tt.bundle}}
			check := func(what, got string, err error, want, wantErr string) {
				if wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), wantErr) {
						t.Errorf("%s: got %q, %v; want error containing %q", what, got, err, wantErr)
					}
					return
				}
				if err != nil || got != want {
					t.Errorf("%s: got %q, %v; want %q", what, got, err, want)
				}
			}
			b, err := p.BundleImage("1.2.3")
			check("bundle", b, err, tt.wantB, tt.errB)
			c, err := p.CatalogImage(Catalog{Name: "c", Image: tt.catalog}, "1.2.3")
			check("catalog", c, err, tt.wantC, tt.errC)
		})
	}
}

// TestGitTagCheckouts: checkouts CI makes, which no tag at HEAD gives a version: a source archive,
// actions/checkout's shallow fetch without tags, a clone without tags, an untagged commit. Each
// error says what to fetch, or --version.
func TestGitTagCheckouts(t *testing.T) {
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	origin := t.TempDir()
	git(origin, "init", "-q")
	git(origin, "commit", "-q", "--allow-empty", "-m", "one")
	git(origin, "tag", "v1.0.0")
	git(origin, "commit", "-q", "--allow-empty", "-m", "two")
	mk := func(setup func(dir string)) string {
		dir := t.TempDir()
		setup(dir)
		return dir
	}
	tests := []struct {
		name, dir, want string
	}{
		{"source archive", t.TempDir(), "not in a git repository (a source archive?), so no tag gives its version: pass --version"},
		{"shallow, no tags (actions/checkout)", mk(func(d string) {
			git(d, "init", "-q")
			git(d, "fetch", "-q", "--depth=1", "--no-tags", "file://"+origin, "HEAD")
			git(d, "checkout", "-q", "FETCH_HEAD")
		}), "the checkout is shallow and holds no tags (actions/checkout fetches one commit and no tags unless fetch-depth: 0 or fetch-tags: true): fetch the tags (git fetch --tags), or pass --version"},
		{"clone without tags", mk(func(d string) { git(d, "clone", "-q", "--no-tags", origin, ".") }),
			"the repository holds no tags (cloned or checked out without them?): fetch them (git fetch --tags), or pass --version"},
		{"untagged commit", origin, "no tag points at HEAD (the repository holds 1 other tags): tag the commit, or pass --version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustDecode(t, minimal+"versionFrom:\n  gitTag: {}\n")
			p.Dir = tt.dir
			_, err := p.ResolveVersion(context.Background())
			var nt *NoTagError
			if !errors.As(err, &nt) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want a NoTagError saying %q", err, tt.want)
			}
		})
	}
}
