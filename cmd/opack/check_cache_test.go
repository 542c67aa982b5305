package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckCache: check keeps its result and the results of its steps in the user's cache, and
// every answer it gives from them is the answer of a cold run (--no-cache) on the same tree: a
// second check of an unchanged tree (which runs no step), a check after a one-file change, after a
// file no step reads is added (steps such as the kustomize build are taken from the cache), a
// check over damaged cache entries, a check whose cache folder belongs to another user.
func TestCheckCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // a changed CSV's createdAt: the same in both runs
	dir := demoProject(t)
	for _, args := range [][]string{
		{"init", dir, "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog"},
		{"build", "-f", filepath.Join(dir, "opack.yaml")},
	} {
		if code, stdout, stderr := runOpack(t, "", args...); code != 0 {
			t.Fatalf("opack %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	check := func(extra ...string) string {
		t.Helper()
		code, stdout, stderr := runOpack(t, "", append([]string{"check", "-f", filepath.Join(dir, "opack.yaml"), "-o", "json"}, extra...)...)
		return strings.Join([]string{"exit " + string(rune('0'+code)), stdout, stderr}, "\n")
	}
	same := func(what string) {
		t.Helper()
		cold, warm := check("--no-cache"), check()
		if diff := cmp.Diff(cold, warm); diff != "" {
			t.Errorf("%s: check (-cold +cached):\n%s", what, diff)
		}
	}
	same("first check")
	same("unchanged tree")
	if _, _, stderr := runOpack(t, "", "check", "-f", filepath.Join(dir, "opack.yaml"), "-v"); !strings.Contains(stderr, "generate") {
		t.Fatalf("check -v ran no step the first time:\n%s", stderr)
	}
	if _, _, stderr := runOpack(t, "", "check", "-f", filepath.Join(dir, "opack.yaml"), "-v"); !strings.Contains(stderr, "unchanged since a passing check") || strings.Contains(stderr, "generate\n") {
		t.Errorf("check -v of an unchanged tree ran its steps again:\n%s", stderr)
	}

	base := filepath.Join(dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml")
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base, bytes.Replace(data, []byte("description:"), []byte("description: changed by a pull request"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	same("one file changed")
	if err := os.WriteFile(filepath.Join(dir, "NOTES.md"), []byte("a file no step reads\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	same("a file no step reads added")

	steps := filepath.Join(cache, "opack", "steps")
	n := 0
	filepath.WalkDir(steps, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			if len(data) > 0 {
				data[len(data)/2] ^= 0xff
				os.WriteFile(p, data, 0o600)
				n++
			}
		}
		return nil
	})
	if n == 0 {
		t.Fatalf("no cache entry in %s", steps)
	}
	same("damaged entries")

	if err := filepath.WalkDir(filepath.Join(cache, "opack"), func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}); err != nil {
		t.Skipf("cannot give the cache to another user here: %v", err)
	}
	same("cache folder of another user")
}
