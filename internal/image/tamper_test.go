package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnpackVerifiesLayerDigests: a layout blob changed behind the manifest's back is refused.
func TestUnpackVerifiesLayerDigests(t *testing.T) {
	img := imageOf(t, tarLayer(t, entry{Name: "f", Type: tar.TypeReg, Body: "good"}))
	dir := filepath.Join(t.TempDir(), "oci")
	p, _ := NewLayoutPublisher(dir, "v1")
	if _, err := p.Publish(t.Context(), img); err != nil {
		t.Fatal(err)
	}
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	var evil bytes.Buffer
	gz := gzip.NewWriter(&evil)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "f", Typeflag: tar.TypeReg, Mode: 0o644, Size: 4})
	tw.Write([]byte("evil"))
	tw.Close()
	gz.Close()
	blob := filepath.Join(dir, "blobs", "sha256", m.Layers[0].Digest.Hex)
	if err := os.WriteFile(blob, evil.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	_, err = Unpack(t.Context(), "oci:"+dir+":v1", dst)
	if err == nil || !strings.Contains(err.Error(), "digest") {
		t.Errorf("Unpack() of a tampered layer: error = %v, want a digest mismatch", err)
	}
}
