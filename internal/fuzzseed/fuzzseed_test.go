package fuzzseed

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestPaths(t *testing.T) {
	got := Paths(t, "testdata/crd-upgrade/kapp-e2e/*/old.yaml", "testdata/crd-upgrade/kapp-e2e/scopechange/old.yaml")
	if len(got) < 10 || !sort.StringsAreSorted(got) {
		t.Fatalf("Paths() = %d files (sorted: %v), want the kapp-e2e fixtures, sorted, without duplicates", len(got), sort.StringsAreSorted(got))
	}
	seen := map[string]bool{}
	for _, p := range got {
		if seen[p] || filepath.Base(p) != "old.yaml" {
			t.Errorf("unexpected or repeated path %s", p)
		}
		seen[p] = true
	}
	if data := Files(t, "testdata/crd-upgrade/kapp-e2e/scopechange/old.yaml"); len(data) != 1 || !strings.Contains(string(data[0]), "CustomResourceDefinition") {
		t.Errorf("Files() did not return the fixture's content")
	}
}

// failTB records a fatal error instead of stopping the test.
type failTB struct {
	testing.TB
	msg string
}

func (f *failTB) Helper() {}
func (f *failTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

func TestPathsFailsOnMissingPattern(t *testing.T) {
	f := &failTB{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil && r != any(f) {
				panic(r)
			}
		}()
		Paths(f, "testdata/no-such-folder/*.yaml")
	}()
	if !strings.Contains(f.msg, "matches no file") {
		t.Errorf("Paths() on a missing pattern reported %q, want a failure", f.msg)
	}
}
