// Package fuzzseed gives fuzz targets their seed corpora: the bytes of real fixtures under the
// repository's testdata/ folder, so that `go test` runs every seed as a regression test and
// `go test -fuzz` mutates real bundles, catalogs and CRDs rather than random bytes.
package fuzzseed

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// MaxSeed is the largest fixture used as a seed; larger files slow the fuzzer without
// adding shapes the smaller ones lack.
const MaxSeed = 64 << 10

// Root returns the repository root (the folder holding go.mod), or fails tb.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("fuzzseed: no go.mod above the working folder")
		}
		dir = parent
	}
}

// Paths returns the sorted files matching the glob patterns (relative to the repository root,
// e.g. "testdata/crd-upgrade/*/*/old.yaml") that are at most MaxSeed bytes. A pattern
// matching nothing fails tb: a seed corpus that silently shrinks to nothing tests nothing.
func Paths(tb testing.TB, patterns ...string) []string {
	tb.Helper()
	root := Root(tb)
	seen := map[string]bool{}
	var out []string
	for _, p := range patterns {
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			tb.Fatalf("fuzzseed: pattern %q: %v", p, err)
		}
		if len(matches) == 0 {
			tb.Fatalf("fuzzseed: pattern %q matches no file under %s", p, root)
		}
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxSeed || seen[m] {
				continue
			}
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// Files returns the contents of Paths(tb, patterns...).
func Files(tb testing.TB, patterns ...string) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, p := range Paths(tb, patterns...) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// Add adds every file matching the patterns to f's seed corpus (for targets taking one []byte).
func Add(f *testing.F, patterns ...string) {
	f.Helper()
	for _, data := range Files(f, patterns...) {
		f.Add(data)
	}
}

// FBC lists real file-based catalogs and catalog templates below testdata/opm, the seeds of the
// catalog fuzz targets.
var FBC = []string{
	"testdata/opm/fbc-dir-example/*.yaml",
	"testdata/opm/fbc-list-index/*/*.yaml",
	"testdata/opm/declcfg-load-validFS/*",
	"testdata/opm/validate-cases/*/catalog/*.json",
	"testdata/opm/templates/*/template.yaml",
}
