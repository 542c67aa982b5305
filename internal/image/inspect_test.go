package image

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestInspect(t *testing.T) {
	host := newRegistry(t, nil)
	catalog, err := Catalog(t.Context(), catalogFBC, WithPlatforms(amd64, arm64))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := NewRegistryPublisher(host+"/demo/catalog:latest", testOptions()...)
	if _, err := p.Publish(t.Context(), catalog); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "oci")
	lp, _ := NewLayoutPublisher(dir, "latest")
	if _, err := lp.Publish(t.Context(), catalog); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{host + "/demo/catalog:latest", "oci:" + dir + ":latest"} {
		t.Run(ref, func(t *testing.T) {
			r, err := Inspect(t.Context(), ref, testOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			if r.Digest != mustDigest(t, catalog).String() || r.MediaType != "application/vnd.oci.image.index.v1+json" {
				t.Errorf("Inspect() = %s %s, want %s and an OCI index", r.Digest, r.MediaType, mustDigest(t, catalog))
			}
			var got []string
			for _, img := range r.Images {
				got = append(got, img.Platform+" "+img.Labels[CatalogConfigsLabel]+" "+img.Created)
				if len(img.Layers) != 2 || !strings.HasPrefix(img.Layers[0].DiffID, "sha256:") { // /configs and the serve cache
					t.Errorf("%s: layers %+v", img.Platform, img.Layers)
				}
			}
			want := []string{"linux/amd64 /configs 1970-01-01T00:00:00Z", "linux/arm64 /configs 1970-01-01T00:00:00Z"}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("images (-want +got):\n%s", d)
			}
		})
	}
	if _, err := Inspect(t.Context(), "oci:"+dir+":nope"); err == nil || !strings.Contains(err.Error(), "tags: latest") {
		t.Errorf("Inspect(missing tag) error = %v, want the list of tags", err)
	}
}
