package image

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

var (
	amd64 = v1.Platform{OS: "linux", Architecture: "amd64"}
	arm64 = v1.Platform{OS: "linux", Architecture: "arm64"}
)

// fakeOpmBase is a multi-arch OCI index like opm's: two platform images of two random layers
// each, plus a buildx attestation manifest (unknown/unknown) that must be dropped.
func fakeOpmBase(t *testing.T) v1.ImageIndex {
	t.Helper()
	var adds []mutate.IndexAddendum
	for _, p := range []v1.Platform{amd64, arm64, {OS: "unknown", Architecture: "unknown"}} {
		img, err := random.Image(256, 2)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		cf.OS, cf.Architecture = p.OS, p.Architecture
		cf.Config.Labels = map[string]string{"base": "opm"}
		cf.Config.Entrypoint = []string{"/bin/sh"}
		if img, err = mutate.ConfigFile(img, cf); err != nil {
			t.Fatal(err)
		}
		adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &p}})
	}
	return mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex), adds...)
}

func TestCatalogScratch(t *testing.T) {
	a, err := Catalog(t.Context(), catalogFBC)
	if err != nil {
		t.Fatal(err)
	}
	img, ok := a.(v1.Image)
	if !ok {
		t.Fatalf("Catalog() = %T, want a single image", a)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]string{CatalogConfigsLabel: "/configs"}, cf.Config.Labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if cf.Config.Entrypoint != nil || cf.Config.Cmd != nil || cf.Platform().String() != "linux/amd64" {
		t.Errorf("entrypoint %q cmd %q platform %s; want none, none, linux/amd64", cf.Config.Entrypoint, cf.Config.Cmd, cf.Platform())
	}
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range layerEntries(t, ls[0]) {
		names = append(names, e.Name)
	}
	want := []string{"configs/", "configs/bar/", "configs/bar/index.yaml", "configs/foo/", "configs/foo/index.yaml"}
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("layer entries (-want +got):\n%s", d)
	}
}

func TestCatalogScratchPlatforms(t *testing.T) {
	for _, tc := range []struct {
		format Format
		want   types.MediaType
	}{{FormatOCI, types.OCIImageIndex}, {FormatDocker, types.DockerManifestList}} {
		t.Run(string(tc.format), func(t *testing.T) {
			a, err := Catalog(t.Context(), catalogFBC, WithFormat(tc.format), WithPlatforms(amd64, arm64))
			if err != nil {
				t.Fatal(err)
			}
			idx, ok := a.(v1.ImageIndex)
			if !ok {
				t.Fatalf("Catalog() = %T, want an index", a)
			}
			im, err := idx.IndexManifest()
			if err != nil {
				t.Fatal(err)
			}
			if im.MediaType != tc.want || len(im.Manifests) != 2 {
				t.Fatalf("index %s with %d manifests, want %s with 2", im.MediaType, len(im.Manifests), tc.want)
			}
			if got := platformList(im.Manifests); got != "linux/amd64, linux/arm64" {
				t.Errorf("platforms = %s", got)
			}
			if err := validate.Index(roundTrip(t, idx)); err != nil {
				t.Errorf("validate.Index: %v", err)
			}
		})
	}
}

// roundTrip writes an index to an OCI layout and reads it back (validate needs serialized input).
func roundTrip(t *testing.T, idx v1.ImageIndex) v1.ImageIndex {
	t.Helper()
	p, err := layout.Write(t.TempDir(), empty.Index)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.AppendIndex(idx); err != nil {
		t.Fatal(err)
	}
	ii, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	out, err := ii.ImageIndex(mustDigest(t, idx))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCatalogOnMultiArchBase(t *testing.T) {
	base := fakeOpmBase(t)
	host := newRegistry(t, nil)
	baseRef := host + "/operator-framework/opm:v1"
	ref, err := parseRemoteRef(baseRef, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.WriteIndex(ref, base, remote.WithContext(t.Context())); err != nil {
		t.Fatal(err)
	}
	layoutDir := filepath.Join(t.TempDir(), "oci")
	lp, _ := NewLayoutPublisher(layoutDir, "v1")
	if _, err := lp.Publish(t.Context(), base); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, base string }{
		{"registry", baseRef},
		{"layout", "oci:" + layoutDir + ":v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Catalog(t.Context(), catalogFBC, testOptions(WithBase(tc.base))...)
			if err != nil {
				t.Fatal(err)
			}
			idx, ok := a.(v1.ImageIndex)
			if !ok {
				t.Fatalf("Catalog() = %T, want an index", a)
			}
			im, err := idx.IndexManifest()
			if err != nil {
				t.Fatal(err)
			}
			if got := platformList(im.Manifests); got != "linux/amd64, linux/arm64" {
				t.Fatalf("platforms = %q, want linux/amd64 and linux/arm64 (attestation dropped)", got)
			}
			for _, d := range im.Manifests {
				checkCatalogChild(t, idx, d)
			}
			if err := validate.Index(roundTrip(t, idx)); err != nil {
				t.Errorf("validate.Index: %v", err)
			}
		})
	}
}

func checkCatalogChild(t *testing.T, idx v1.ImageIndex, d v1.Descriptor) {
	t.Helper()
	img, err := idx.Image(d.Digest)
	if err != nil {
		t.Fatal(err)
	}
	checkCatalogImage(t, img, d.Platform)
}

func checkCatalogImage(t *testing.T, img v1.Image, platform *v1.Platform) {
	t.Helper()
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.Platform().String() != platform.String() {
		t.Errorf("config platform %s, want %s", cf.Platform(), platform)
	}
	if d := cmp.Diff(map[string]string{"base": "opm", CatalogConfigsLabel: "/configs"}, cf.Config.Labels); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
	if d := cmp.Diff(opmEntrypoint, cf.Config.Entrypoint); d != "" {
		t.Errorf("entrypoint (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"serve", "/configs", "--cache-dir=/tmp/cache"}, cf.Config.Cmd); d != "" {
		t.Errorf("cmd (-want +got):\n%s", d)
	}
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Layers) != 4 || m.Layers[2].MediaType != types.DockerLayer || m.Layers[3].MediaType != types.DockerLayer {
		t.Errorf("layers = %d, last %s; want 2 base layers + the docker-typed /configs and serve cache layers", len(m.Layers), m.Layers[len(m.Layers)-1].MediaType)
	}
}

func TestCatalogBaseErrors(t *testing.T) {
	host := newRegistry(t, nil)
	baseRef := host + "/opm:v1"
	ref, _ := parseRemoteRef(baseRef, false)
	base := fakeOpmBase(t)
	if err := remote.WriteIndex(ref, base, remote.WithContext(t.Context())); err != nil {
		t.Fatal(err)
	}
	amd64Image, err := base.Image(mustIndexManifest(t, base).Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	single, _ := parseRemoteRef(host+"/single:v1", false)
	if err := remote.Write(single, amd64Image, remote.WithContext(t.Context())); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		dir  string
		opts []Option
		want string
	}{
		{"one platform", catalogFBC, []Option{WithBase(baseRef), WithPlatforms(arm64)}, ""},
		{"missing platform", catalogFBC, []Option{WithBase(baseRef), WithPlatforms(v1.Platform{OS: "linux", Architecture: "s390x"})},
			"no image for the requested platforms (it has: linux/amd64, linux/arm64)"},
		{"format with base", catalogFBC, []Option{WithBase(baseRef), WithFormat(FormatDocker)}, "drop --format"},
		{"single-platform base", catalogFBC, []Option{WithBase(host + "/single:v1"), WithPlatforms(arm64)}, "is a single-platform image (linux/amd64)"},
		{"missing base", catalogFBC, []Option{WithBase(host + "/nope:v1")}, "reading catalog base: pulling"},
		{"missing dir", "does-not-exist", nil, "reading catalog does-not-exist: not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Catalog(t.Context(), tc.dir, testOptions(tc.opts...)...)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				img, ok := a.(v1.Image)
				if !ok {
					t.Fatalf("Catalog() = %T, want a single image", a)
				}
				cf, _ := img.ConfigFile()
				if cf.Platform().String() != "linux/arm64" {
					t.Errorf("platform = %s, want linux/arm64", cf.Platform())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Catalog() error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func mustIndexManifest(t *testing.T, idx v1.ImageIndex) *v1.IndexManifest {
	t.Helper()
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestCatalogOnSingleImageBase(t *testing.T) {
	base := fakeOpmBase(t)
	img, err := base.Image(mustIndexManifest(t, base).Manifests[1].Digest) // linux/arm64
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "oci")
	p, _ := NewLayoutPublisher(dir, "opm")
	if _, err := p.Publish(t.Context(), img); err != nil {
		t.Fatal(err)
	}
	a, err := Catalog(t.Context(), catalogFBC, WithBase("oci:"+dir+":opm"))
	if err != nil {
		t.Fatal(err)
	}
	cat, ok := a.(v1.Image)
	if !ok {
		t.Fatalf("Catalog() = %T, want an image", a)
	}
	checkCatalogImage(t, cat, &arm64)
}
