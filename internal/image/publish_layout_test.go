package image

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// layoutState is what a test compares of a layout: its blobs and each file's modification time.
func layoutState(t *testing.T, dir string) (blobs []string, mtimes map[string]time.Time) {
	t.Helper()
	mtimes = map[string]time.Time{}
	for name := range treeFiles(t, dir) {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		mtimes[name] = fi.ModTime()
		if filepath.Dir(name) == "blobs/sha256" {
			blobs = append(blobs, filepath.Base(name))
		}
	}
	sort.Strings(blobs)
	return blobs, mtimes
}

func TestLayoutPublisherOptions(t *testing.T) {
	old := imageOf(t, tarLayer(t, entry{Name: "a", Type: '0', Body: "old"}))
	rebuilt := imageOf(t, tarLayer(t, entry{Name: "a", Type: '0', Body: "new"}))
	for _, tc := range []struct {
		name        string
		opts        []LayoutOption
		second      Artifact
		wantTouched bool // the second publish rewrote the layout
		wantOldBlob bool // the first image's layer is still there
	}{
		{"same image, plain: rewritten", nil, old, true, true},
		{"same image, keep unchanged: untouched", []LayoutOption{LayoutKeepUnchanged()}, old, false, true},
		{"rebuilt tag, plain: old blobs stay", nil, rebuilt, true, true},
		{"rebuilt tag, prune: old blobs go", []LayoutOption{LayoutKeepUnchanged(), LayoutPrune()}, rebuilt, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "oci")
			p, err := NewLayoutPublisher(dir, "v1", tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Publish(t.Context(), old); err != nil {
				t.Fatal(err)
			}
			_, before := layoutState(t, dir)
			time.Sleep(10 * time.Millisecond) // a rewrite gets a later modification time
			got, err := p.Publish(t.Context(), tc.second)
			if err != nil {
				t.Fatal(err)
			}
			if want := LayoutPrefix + dir + "@" + mustDigest(t, tc.second).String(); got != want {
				t.Errorf("Publish() = %s, want %s", got, want)
			}
			blobs, after := layoutState(t, dir)
			if touched := !cmp.Equal(before, after); touched != tc.wantTouched {
				t.Errorf("layout rewritten = %v, want %v (diff -before +after):\n%s", touched, tc.wantTouched, cmp.Diff(before, after))
			}
			layers, err := old.Layers()
			if err != nil {
				t.Fatal(err)
			}
			h, _ := layers[0].Digest()
			if has := slices.Contains(blobs, h.Hex); has != tc.wantOldBlob {
				t.Errorf("old layer %s kept = %v, want %v (blobs %v)", h.Hex, has, tc.wantOldBlob, blobs)
			}
			r, err := Inspect(t.Context(), LayoutPrefix+dir+":v1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mustDigest(t, tc.second).String(), r.Digest); diff != "" {
				t.Errorf("the layout's v1 (-want +got):\n%s", diff)
			}
		})
	}
}
