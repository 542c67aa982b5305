package image

import (
	"path/filepath"
	"testing"
)

func BenchmarkBundle(b *testing.B) {
	for b.Loop() {
		img, err := Bundle(b.Context(), bundleDir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := img.Digest(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnpackLayout(b *testing.B) {
	img, err := Bundle(b.Context(), bundleDir)
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "oci")
	p, _ := NewLayoutPublisher(dir, "v1")
	if _, err := p.Publish(b.Context(), img); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Unpack(b.Context(), "oci:"+dir+":v1", filepath.Join(b.TempDir(), "out")); err != nil {
			b.Fatal(err)
		}
	}
}
