package emit

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	// A stale file in olmv0/ must go; olmv1/ and other folders must stay as they are when not written.
	for path, data := range map[string]string{"olmv0/stale.yaml": "x", "olmv1/keep.yaml": "y", "other/keep.txt": "z"} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := specs()["both-scratch"]
	spec.OLMv1 = nil
	files, err := Render(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, dir)
	var paths []string
	for p := range got {
		paths = append(paths, p)
	}
	want := []string{"olmv0/catalogsource.yaml", "olmv0/kustomization.yaml", "olmv0/namespace.yaml", "olmv0/operatorgroup.yaml", "olmv0/subscription.yaml", "olmv1/keep.yaml", "other/keep.txt"}
	if diff := cmp.Diff(want, sorted(paths)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// Writing again changes nothing.
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, readTree(t, dir)); diff != "" {
		t.Errorf("second write changed files:\n%s", diff)
	}
}

func TestWriteRejectsPaths(t *testing.T) {
	for _, p := range []string{"top.yaml", "../olmv0/x.yaml", "olmv0/sub/x.yaml", "/olmv0/x.yaml"} {
		err := Write(t.TempDir(), []File{{Path: p, Data: []byte("x")}})
		if err == nil || !strings.Contains(err.Error(), "is not <folder>/<name>") {
			t.Errorf("Write(%q) error = %v", p, err)
		}
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
