package image

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// brokenLayer has a digest but fails when its bytes are read, as a failing disk or pull would.
// (The crash case, a kill while index.json is written, is covered by ReplaceDir's SIGKILL test.)
type brokenLayer struct{}

func (brokenLayer) Digest() (v1.Hash, error) {
	return v1.NewHash("sha256:0000000000000000000000000000000000000000000000000000000000000001")
}
func (brokenLayer) DiffID() (v1.Hash, error)             { return brokenLayer{}.Digest() }
func (brokenLayer) Compressed() (io.ReadCloser, error)   { return nil, errors.New("disk on fire") }
func (brokenLayer) Uncompressed() (io.ReadCloser, error) { return nil, errors.New("disk on fire") }
func (brokenLayer) Size() (int64, error)                 { return 1, nil }
func (brokenLayer) MediaType() (types.MediaType, error)  { return types.OCILayer, nil }

func TestLayoutPublishIsAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "layout")
	good, err := random.Image(256, 1)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := NewLayoutPublisher(dir, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pub.Publish(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, dir)

	bad, err := mutate.Append(empty.Image, mutate.Addendum{Layer: brokenLayer{}})
	if err != nil {
		t.Fatal(err)
	}
	pub2, err := NewLayoutPublisher(dir, "v2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pub2.Publish(context.Background(), bad); err == nil {
		t.Fatal("Publish() of an image whose layer cannot be read succeeded")
	}
	if diff := cmp.Diff(before, readTree(t, dir)); diff != "" {
		t.Errorf("a failed publish changed the layout (-before +after):\n%s", diff)
	}
	ents, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		t.Errorf("staging folders left beside the layout: %v", ents)
	}

	// A successful publish keeps the earlier image and adds the new one.
	other, _ := random.Image(128, 1)
	if _, err := pub2.Publish(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"oci:" + dir + ":v1", "oci:" + dir + ":v2"} {
		if _, err := Inspect(context.Background(), ref); err != nil {
			t.Errorf("Inspect(%s): %v", ref, err)
		}
	}
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
