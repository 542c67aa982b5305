package image

import (
	"archive/tar"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// FuzzExtract feeds arbitrary layer bytes to the extractor: it must not panic, and whatever it
// leaves behind must stay inside the destination (no symlink resolving outside it).
func FuzzExtract(f *testing.F) {
	for _, es := range [][]entry{
		{{Name: "a/f", Type: tar.TypeReg, Body: "x"}, {Name: "l", Type: tar.TypeSymlink, Linkname: "a/f"}},
		{{Name: "s", Type: tar.TypeSymlink, Linkname: "."}, {Name: "l", Type: tar.TypeSymlink, Linkname: "s/../x"}},
		{{Name: "h", Type: tar.TypeLink, Linkname: "../x"}},
		{{Name: "d/", Type: tar.TypeDir}, {Name: "d/.wh..wh..opq", Type: tar.TypeReg}},
	} {
		f.Add(rawTar(f, es))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
		if err != nil {
			t.Skip()
		}
		dst := filepath.Join(t.TempDir(), "out")
		if err := makeOptions(WithMaxSize(1<<20)).extractTo(t.Context(), imageOf(t, l), dst); err != nil {
			return
		}
		real, err := filepath.EvalSymlinks(dst)
		if err != nil {
			t.Fatal(err)
		}
		filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if r, err := filepath.EvalSymlinks(p); err == nil && r != real && !strings.HasPrefix(r, real+string(os.PathSeparator)) {
				t.Errorf("symlink %s resolves to %s, outside %s", p, r, real)
			}
			return nil
		})
	})
}

func rawTar(f *testing.F, es []entry) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range es {
		if err := tw.WriteHeader(&tar.Header{Name: e.Name, Typeflag: e.Type, Linkname: e.Linkname, Mode: 0o644, Size: int64(len(e.Body))}); err != nil {
			f.Fatal(err)
		}
		tw.Write([]byte(e.Body))
	}
	tw.Close()
	return buf.Bytes()
}

// FuzzExtractSparsePAX mutates layers built around PAX headers and GNU sparse maps (the path by
// which a few stored bytes once became 20 GiB on disk): no panic, no sparse file written,
// and never more bytes on disk than the size limit.
func FuzzExtractSparsePAX(f *testing.F) {
	const limit = 1 << 16
	f.Add(sparseTar(f, "big", 20<<30, "abcd"))
	f.Add(sparseTar(f, "small", 8, "abcd"))
	f.Add(sparseTar(f, "d/f", limit+1, "x"))
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "p", Typeflag: tar.TypeReg, Size: 2, Format: tar.FormatPAX, PAXRecords: map[string]string{"path": "long/" + strings.Repeat("n", 200)}})
	tw.Write([]byte("ok"))
	tw.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		dst := filepath.Join(t.TempDir(), "out")
		if err := makeOptions(WithMaxSize(limit)).extractTo(t.Context(), imageOf(t, bytesLayer(t, data)), dst); err != nil {
			return
		}
		var total int64
		filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				fi, _ := d.Info()
				total += fi.Size()
			}
			return nil
		})
		if total > limit {
			t.Errorf("%d bytes written, over the limit of %d", total, limit)
		}
	})
}
