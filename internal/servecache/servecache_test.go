package servecache

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fbcDirs are catalogs of opm's own test data (testdata/opm, operator-registry v1.73.0).
var fbcDirs = []string{
	"../../testdata/opm/fbc-index-declcfgs/latest", // releases with replaces, skips and skipRange
	"../../testdata/opm/fbc-dir-example",
	"../../testdata/opm/fbc-list-index",
}

func TestBuildDeterministic(t *testing.T) {
	for _, dir := range fbcDirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			first := build(t, dir)
			for i := range 3 { // the cache is built by concurrent workers: any order must give the same bytes
				if d := cmp.Diff(first, build(t, dir)); d != "" {
					t.Fatalf("build %d differs (-first +again):\n%s", i+2, d)
				}
			}
			if _, ok := first["digest"]; !ok {
				t.Errorf("no digest in the cache: %v", keys(first))
			}
		})
	}
}

func TestCheckRefusesChangedCatalog(t *testing.T) {
	src := fbcDirs[0]
	cache := filepath.Join(t.TempDir(), "cache")
	if err := Build(t.Context(), os.DirFS(src), cache); err != nil {
		t.Fatal(err)
	}
	changed := t.TempDir()
	data, err := os.ReadFile(filepath.Join(src, "index.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(changed, "index.yaml"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check(t.Context(), os.DirFS(changed), cache); err == nil || !strings.Contains(err.Error(), "cache requires rebuild") {
		t.Errorf("Check(changed catalog) = %v, want a digest mismatch", err)
	}
}

func TestBuildRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Build(t.Context(), os.DirFS(fbcDirs[0]), dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("Build(non-empty dir) = %v, want a refusal", err)
	}
}

// build returns the cache of dir as path -> mode and content.
func build(t *testing.T, dir string) map[string]string {
	t.Helper()
	cache := filepath.Join(t.TempDir(), "cache")
	if err := Build(t.Context(), os.DirFS(dir), cache); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(cache, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data := ""
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			data = string(b)
		}
		out[rel] = fi.Mode().String() + " " + data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestBuildTempFileInTempDir: with WithTempDir, operator-registry's opm-cache-build-*.json is created
// in that folder while the cache builds, never in $TMPDIR; afterwards neither holds one and $TMPDIR is
// what it was.
func TestBuildTempFileInTempDir(t *testing.T) {
	envTmp, own := t.TempDir(), filepath.Join(t.TempDir(), "own")
	t.Setenv("TMPDIR", envTmp)
	spy := &tempSpy{FS: os.DirFS(fbcDirs[0]), dirs: []string{envTmp, own}, seen: map[string]bool{}}
	if err := Build(t.Context(), spy, filepath.Join(t.TempDir(), "cache"), WithTempDir(own)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{own: true}, spy.seen); diff != "" {
		t.Errorf("folders holding opm-cache-build-*.json while the cache built (-want +got):\n%s", diff)
	}
	for _, dir := range []string{envTmp, own} {
		if left, _ := filepath.Glob(filepath.Join(dir, "opm-cache-build-*")); len(left) > 0 {
			t.Errorf("left after the build: %v", left)
		}
	}
	if got := os.Getenv("TMPDIR"); got != envTmp {
		t.Errorf("TMPDIR = %q after the build, want %q", got, envTmp)
	}
}

// tempSpy records, each time the catalog is read, which of dirs holds an opm-cache-build-*.json file.
type tempSpy struct {
	fs.FS
	dirs []string
	mu   sync.Mutex
	seen map[string]bool
}

func (s *tempSpy) Open(name string) (fs.File, error) {
	for _, d := range s.dirs {
		if m, _ := filepath.Glob(filepath.Join(d, "opm-cache-build-*.json")); len(m) > 0 {
			s.mu.Lock()
			s.seen[d] = true
			s.mu.Unlock()
		}
	}
	return s.FS.Open(name)
}
