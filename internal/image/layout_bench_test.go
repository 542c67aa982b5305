package image

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/opack/opack/internal/benchutil"
)

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fi, ierr := d.Info()
			if ierr != nil {
				return ierr
			}
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// benchPublish builds an image of dir and writes it to a fresh OCI layout per iteration.
func benchPublish(b *testing.B, dir string, publish func(p Publisher) error) {
	b.SetBytes(dirSize(b, dir))
	b.ReportAllocs()
	base := b.TempDir()
	defer benchutil.Measure(b)()
	for b.Loop() {
		out, err := os.MkdirTemp(base, "oci")
		if err != nil {
			b.Fatal(err)
		}
		p, err := NewLayoutPublisher(out, "v1")
		if err != nil {
			b.Fatal(err)
		}
		if err := publish(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBundleToLayout builds the memcached bundle image and writes it to an OCI layout.
func BenchmarkBundleToLayout(b *testing.B) {
	benchPublish(b, bundleDir, func(p Publisher) error {
		_, err := PublishBundle(b.Context(), bundleDir, p)
		return err
	})
}

// BenchmarkCatalogToLayout builds a catalog image (FBC layer plus the pre-built cache layer) and writes it
// to an OCI layout: the small test catalog, and certified-operators-v4.22 from the corpus (11 MB).
func BenchmarkCatalogToLayout(b *testing.B) {
	b.Run("catalog=fbc-list-index", func(b *testing.B) {
		benchPublish(b, catalogFBC, func(p Publisher) error {
			_, err := PublishCatalog(b.Context(), catalogFBC, p)
			return err
		})
	})
	b.Run("catalog=certified-operators-v4.22", func(b *testing.B) {
		dir := benchutil.CorpusDir(b, "fbc", "certified-operators-v4.22")
		benchPublish(b, dir, func(p Publisher) error {
			_, err := PublishCatalog(b.Context(), dir, p)
			return err
		})
	})
}
