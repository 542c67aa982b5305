package image

import (
	"archive/tar"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/opack/opack/internal/leakcheck"
)

// TestHostileLayouts: an OCI layout is read only through the confined reader. A layout whose
// index.json or blobs are links out of it (to /dev/zero), FIFOs or sparse files of GiBs is
// refused with the file's name, before anything reads it: by Inspect, Unpack, LayoutHolds and
// the layout publisher (which reads the layout it adds to), never hanging or reading GiBs.
func TestHostileLayouts(t *testing.T) {
	defer leakcheck.Check(t)
	img := imageOf(t, tarLayer(t, entry{Name: "f", Type: tar.TypeReg, Body: "good"}))
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := img.Digest()
	manifestBlob := "blobs/sha256/" + h.Hex
	configBlob := "blobs/sha256/" + m.Config.Digest.Hex
	layerBlob := "blobs/sha256/" + m.Layers[0].Digest.Hex
	symlink := func(target string) func(p string) error {
		return func(p string) error { return os.Symlink(target, p) }
	}
	fifo := func(p string) error { return syscall.Mkfifo(p, 0o644) }
	sparse := func(p string) error { return os.Truncate(p, 4<<30) }
	tests := []struct {
		file  string
		plant func(p string) error
		want  string
	}{
		{"index.json", symlink("/dev/zero"), "index.json is a symlink to /dev/zero, which leads out of the layout"},
		{"index.json", fifo, "index.json is not a regular file"},
		{"index.json", sparse, "index.json: manifest size exceeds the limit of 4194304"},
		{manifestBlob, symlink("/dev/zero"), "leads out of the layout"},
		{manifestBlob, fifo, "is not a regular file"},
		{manifestBlob, sparse, "manifest size exceeds the limit"},
		{configBlob, symlink("../../../../../../dev/zero"), "leads out of the layout"},
		{configBlob, fifo, "is not a regular file"},
		{layerBlob, fifo, "is not a regular file"},
		{layerBlob, sparse, "does not match its digest"},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.want, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "oci")
			p, _ := NewLayoutPublisher(dir, "v1")
			if _, err := p.Publish(t.Context(), img); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, filepath.FromSlash(tt.file))
			if !strings.Contains(tt.want, "size") && !strings.Contains(tt.want, "digest") { // a sparse file grows the blob in place
				if err := os.Remove(target); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.plant(target); err != nil {
				t.Fatal(err)
			}
			ref := "oci:" + dir + ":v1"
			check := func(what string, err error, want ...string) {
				t.Helper()
				if len(want) == 0 {
					want = []string{tt.want}
				}
				if err == nil || !strings.Contains(err.Error(), want[0]) {
					t.Errorf("%s: error = %v, want %q", what, err, want[0])
				}
			}
			_, err := Unpack(t.Context(), ref, filepath.Join(t.TempDir(), "out"))
			check("Unpack", err)
			if tt.file == "index.json" {
				_, err = Inspect(t.Context(), ref)
				check("Inspect", err)
				_, err = LayoutHolds(dir, h.String())
				check("LayoutHolds", err)
				keep, _ := NewLayoutPublisher(dir, "v1", LayoutKeepUnchanged(), LayoutPrune())
				_, err = keep.Publish(t.Context(), img)
				check("Publish", err, "index.json")
			}
		})
	}
}
