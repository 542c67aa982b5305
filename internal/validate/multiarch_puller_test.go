package validate

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"

	"github.com/opack/opack/internal/image"
)

// TestImageInspectorLayout reads platforms through the image.Puller seam, from an OCI layout.
func TestImageInspectorLayout(t *testing.T) {
	idx := mutate.AppendManifests(empty.Index,
		mutate.IndexAddendum{Add: platformImage(t, "linux", "amd64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "amd64"}}},
		mutate.IndexAddendum{Add: platformImage(t, "linux", "arm64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}},
	)
	dir := filepath.Join(t.TempDir(), "oci")
	for tag, a := range map[string]image.Artifact{"multi": idx, "single": platformImage(t, "linux", "s390x")} {
		p, err := image.NewLayoutPublisher(dir, tag)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Publish(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, ref string
		want      []Platform
	}{
		{"index", "oci:" + dir + ":multi", []Platform{{"linux", "amd64"}, {"linux", "arm64"}}},
		{"single image", "oci:" + dir + ":single", []Platform{{"linux", "s390x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&ImageInspector{Puller: image.NewPuller()}).Platforms(t.Context(), tc.ref)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Platforms() (-want +got):\n%s", diff)
			}
		})
	}
}
