package image

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLayoutNamesAndTags publishes into one OCI layout under several tags and inspects it:
// the full reference given as the tag is recorded and reported, several tags of one manifest
// are one manifest, and two different manifests still need a tag.
func TestLayoutNamesAndTags(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "oci")
	publish := func(tag, src string) string {
		t.Helper()
		p, err := NewLayoutPublisher(dir, tag)
		if err != nil {
			t.Fatal(err)
		}
		pub := PublishBundle
		if src == catalogFBC {
			pub = PublishCatalog
		}
		ref, err := pub(ctx, src, p)
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	publish("quay.io/example/bundle:v1", bundleDir)
	publish("v2", bundleDir)
	type result struct{ Name, Err string }
	inspect := func(ref string) result {
		r, err := Inspect(ctx, ref)
		if err != nil {
			return result{Err: err.Error()}
		}
		return result{Name: r.Name}
	}
	tests := []struct {
		name, ref string
		want      result
	}{
		{"full reference recorded", "oci:" + dir + ":v1", result{Name: "quay.io/example/bundle:v1"}},
		{"one manifest under two tags", "oci:" + dir, result{Name: "quay.io/example/bundle:v1"}},
		{"tag only", "oci:" + dir + ":v2", result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, inspect(tt.ref)); diff != "" {
				t.Errorf("Inspect(%s) (-want +got):\n%s", tt.ref, diff)
			}
		})
	}
	publish("catalog", catalogFBC)
	if got := inspect("oci:" + dir); !strings.Contains(got.Err, "the layout holds 2 manifests") {
		t.Errorf("two manifests: got %+v, want an error asking for a tag", got)
	}
	if _, err := NewLayoutPublisher(dir, "Not/A:Ref:"); err == nil {
		t.Error("NewLayoutPublisher accepted a bad reference")
	}
}
