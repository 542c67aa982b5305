package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

func TestRegistryPublisher(t *testing.T) {
	host := newRegistry(t, nil)
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := Catalog(t.Context(), catalogFBC, WithPlatforms(amd64, arm64))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		a    Artifact
		tag  string
	}{
		{"bundle", bundle, host + "/demo/bundle:v0.0.1"},
		{"multi-arch catalog", catalog, host + "/demo/catalog:latest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewRegistryPublisher(tc.tag, testOptions()...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Publish(t.Context(), tc.a)
			if err != nil {
				t.Fatal(err)
			}
			repo, _, _ := strings.Cut(tc.tag, ":v")
			repo, _, _ = strings.Cut(repo, ":latest")
			want := repo + "@" + mustDigest(t, tc.a).String()
			if got != want {
				t.Errorf("Publish() = %s, want %s", got, want)
			}
			ref, _ := parseRemoteRef(tc.tag, false)
			desc, err := remote.Get(ref, remote.WithContext(t.Context()))
			if err != nil {
				t.Fatal(err)
			}
			if desc.Digest != mustDigest(t, tc.a) {
				t.Errorf("registry holds %s, built %s", desc.Digest, mustDigest(t, tc.a))
			}
			if desc.MediaType.IsIndex() {
				idx, _ := desc.ImageIndex()
				err = validate.Index(idx)
			} else {
				img, _ := desc.Image()
				err = validate.Image(img)
			}
			if err != nil {
				t.Errorf("validate: %v", err)
			}
		})
	}
}

func TestLayoutPublisher(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oci")
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	catalog, err := Catalog(t.Context(), catalogFBC)
	if err != nil {
		t.Fatal(err)
	}
	publish := func(tag string, a Artifact) string {
		p, err := NewLayoutPublisher(dir, tag)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Publish(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := "oci:" + dir + "@" + mustDigest(t, bundle).String()
	if got := publish("v0.0.1", bundle); got != want {
		t.Errorf("Publish() = %s, want %s", got, want)
	}
	publish("v0.0.1", bundle) // same tag: replaced, not duplicated
	publish("latest", catalog)
	publish("", catalog) // untagged: replaced by digest
	im := readIndexForTest(t, dir)
	var got []string
	for _, d := range im.Manifests {
		got = append(got, d.Annotations[refNameAnnotation]+"="+d.Digest.String())
	}
	wantTags := []string{"v0.0.1=" + mustDigest(t, bundle).String(), "=" + mustDigest(t, catalog).String()}
	if d := cmp.Diff(wantTags, got); d != "" {
		t.Errorf("layout manifests (-want +got):\n%s", d)
	}
	a, _, err := fetchLayout(layoutRef{dir: dir, tag: "v0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Image(a.(v1.Image)); err != nil {
		t.Errorf("validate.Image: %v", err)
	}
}

func readIndexForTest(t *testing.T, dir string) *v1.IndexManifest {
	t.Helper()
	p, err := layout.FromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	ii, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	im, err := ii.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestLayoutPublisherRefusesOtherDirs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := NewLayoutPublisher(dir, "v1")
	bundle, _ := Bundle(t.Context(), bundleDir)
	if _, err := p.Publish(t.Context(), bundle); err == nil || !strings.Contains(err.Error(), "choose a missing or empty directory") {
		t.Errorf("Publish() error = %v, want a refusal", err)
	}
	if _, err := NewLayoutPublisher(dir, "bad tag!"); err == nil {
		t.Error("NewLayoutPublisher accepted a bad tag")
	}
}

func TestTarballPublisher(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bundle.tar")
	bundle, err := Bundle(t.Context(), bundleDir, WithFormat(FormatDocker))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewTarballPublisher(file, "example.com/demo/bundle:v0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Publish(t.Context(), bundle)
	if err != nil {
		t.Fatal(err)
	}
	if want := "example.com/demo/bundle@" + mustDigest(t, bundle).String(); got != want {
		t.Errorf("Publish() = %s, want %s", got, want)
	}
	loaded, err := tarball.ImageFromPath(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	gotCfg, _ := loaded.ConfigName()
	wantCfg, _ := bundle.ConfigName()
	if gotCfg != wantCfg {
		t.Errorf("tarball config digest %s, want %s", gotCfg, wantCfg)
	}
	if err := validate.Image(loaded); err != nil {
		t.Errorf("validate.Image: %v", err)
	}
	index, err := Catalog(t.Context(), catalogFBC, WithPlatforms(amd64, arm64))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Publish(t.Context(), index); err == nil || !strings.Contains(err.Error(), "not a multi-arch index") {
		t.Errorf("Publish(index) error = %v, want a refusal", err)
	}
}
