package image

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// sparseTar is a layer holding one PAX (GNU 0.1) sparse entry: stored bytes data, real size
// realSize. archive/tar writes no GNU.sparse records, so they are written under another
// vendor name of the same length and renamed in the bytes (PAX records are not checksummed).
func sparseTar(tb testing.TB, name string, realSize int64, data string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	h := &tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data)), Format: tar.FormatPAX,
		PAXRecords: map[string]string{
			"XNU.sparse.major": "0", "XNU.sparse.minor": "1", "XNU.sparse.name": name,
			"XNU.sparse.size": strconv.FormatInt(realSize, 10), "XNU.sparse.numblocks": "1",
			"XNU.sparse.map": "0," + strconv.Itoa(len(data)),
		}}
	if err := tw.WriteHeader(h); err != nil {
		tb.Fatal(err)
	}
	if _, err := tw.Write([]byte(data)); err != nil {
		tb.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte("XNU.sparse."), []byte("GNU.sparse."))
}

func bytesLayer(tb testing.TB, b []byte) v1.Layer {
	tb.Helper()
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil })
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// TestUnpackRefusesSparseEntries: a PAX-sparse entry of a few stored bytes whose real size is
// 20 GiB was once expanded to disk under a 1 GiB limit that counted only
// stored bytes. It is now refused, from its header, before anything is written.
func TestUnpackRefusesSparseEntries(t *testing.T) {
	raw := sparseTar(t, "big", 20<<30, "abcd")
	hdr, err := tar.NewReader(bytes.NewReader(raw)).Next()
	if err != nil || hdr.Size != 20<<30 {
		t.Fatalf("the crafted layer does not read as a 20 GiB sparse file: size %d, %v", hdr.Size, err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	err = makeOptions().extractTo(t.Context(), imageOf(t, bytesLayer(t, raw)), dst)
	if err == nil || !strings.Contains(err.Error(), `refusing entry "big": sparse file`) {
		t.Fatalf("extract error = %v, want a sparse-file refusal", err)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("%s left behind (%v)", dst, err)
	}
}

// TestUnpackCountsMaterializedBytes: the size limit counts what is written to disk (the header
// sizes of the regular files), so a file larger than the limit is refused from its header.
func TestUnpackCountsMaterializedBytes(t *testing.T) {
	reg := func(name string, n int) entry {
		return entry{Name: name, Type: tar.TypeReg, Body: strings.Repeat("z", n)}
	}
	for _, tc := range []struct {
		name    string
		layers  [][]entry
		limit   int64
		wantErr bool
	}{
		{name: "within", layers: [][]entry{{reg("a", 1000), reg("b", 1000)}}, limit: 4096},
		{name: "one file over", layers: [][]entry{{reg("a", 5000)}}, limit: 4096, wantErr: true},
		{name: "sum over across layers", layers: [][]entry{{reg("a", 3000)}, {reg("b", 3000)}}, limit: 4096 + 2048, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ls []v1.Layer
			for _, l := range tc.layers {
				ls = append(ls, tarLayer(t, l...))
			}
			err := makeOptions(WithMaxSize(tc.limit)).extractTo(t.Context(), imageOf(t, ls...), filepath.Join(t.TempDir(), "out"))
			if gotErr := err != nil; gotErr != tc.wantErr {
				t.Fatalf("extract error = %v, want error: %v", err, tc.wantErr)
			}
			if tc.wantErr && !strings.Contains(err.Error(), "--max-image-size") {
				t.Errorf("error %q does not name --max-image-size", err)
			}
		})
	}
}

// manyLayerLayout writes an OCI layout holding one image of n one-file layers; every tenth layer
// whites out a file of the layer below, and every layer but the first has an opaque directory.
func manyLayerLayout(tb testing.TB, n int) string {
	tb.Helper()
	var ls []v1.Layer
	for i := range n {
		es := []entry{{Name: fmt.Sprintf("d%d/f", i), Type: tar.TypeReg, Body: strconv.Itoa(i)}}
		if i%10 == 9 {
			es = append(es, entry{Name: fmt.Sprintf("d%d/.wh.f", i-1), Type: tar.TypeReg})
		}
		if i > 0 {
			es = append(es, entry{Name: "o/.wh..wh..opq", Type: tar.TypeReg}, entry{Name: fmt.Sprintf("o/%d", i), Type: tar.TypeReg, Body: "x"})
		}
		ls = append(ls, tarLayer(tb, es...))
	}
	return writeLayout(tb, ls)
}

// writeLayout writes an OCI layout of one image from its layers blob by blob (mutate and
// layout.AppendImage are themselves quadratic in the layer count).
func writeLayout(tb testing.TB, ls []v1.Layer) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "oci")
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		tb.Fatal(err)
	}
	blob := func(b []byte, mt types.MediaType) v1.Descriptor {
		h, n, _ := v1.SHA256(bytes.NewReader(b))
		if err := p.WriteBlob(h, io.NopCloser(bytes.NewReader(b))); err != nil {
			tb.Fatal(err)
		}
		return v1.Descriptor{MediaType: mt, Size: n, Digest: h}
	}
	cfg := v1.ConfigFile{Architecture: "amd64", OS: "linux", RootFS: v1.RootFS{Type: "layers"}}
	m := v1.Manifest{SchemaVersion: 2, MediaType: types.OCIManifestSchema1}
	for _, l := range ls {
		rc, err := l.Compressed()
		if err != nil {
			tb.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		diffID, _ := l.DiffID()
		cfg.RootFS.DiffIDs = append(cfg.RootFS.DiffIDs, diffID)
		m.Layers = append(m.Layers, blob(b, types.OCILayer))
	}
	cb, _ := json.Marshal(cfg)
	m.Config = blob(cb, types.OCIConfigJSON)
	mb, _ := json.Marshal(m)
	if err := p.AppendDescriptor(blob(mb, types.OCIManifestSchema1)); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestUnpackManyLayers: unpacking was once quadratic in the layer count and unlimited. The layer count is now limited (--max-layers) and the flattened tree is right.
func TestUnpackManyLayers(t *testing.T) {
	const n = 300
	dir := manyLayerLayout(t, n)
	dst := filepath.Join(t.TempDir(), "out")
	if _, err := Unpack(t.Context(), "oci:"+dir, dst); err != nil {
		t.Fatal(err)
	}
	got := treeFiles(t, dst)
	if len(got) != n-n/10+1 || got[fmt.Sprintf("o/%d", n-1)] == "" || got["d8/f"] != "" || got["d9/f"] != "9" {
		t.Errorf("flattened tree has %d files (want %d): o/%d=%q d8/f=%q d9/f=%q", len(got), n-n/10+1, n-1, got[fmt.Sprintf("o/%d", n-1)], got["d8/f"], got["d9/f"])
	}
	_, err := Unpack(t.Context(), "oci:"+dir, filepath.Join(t.TempDir(), "out2"), WithMaxLayers(n-1))
	want := fmt.Sprintf("the image has %d layers, more than the limit of %d (raise it with --max-layers)", n, n-1)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Unpack(WithMaxLayers(%d)) error = %v, want %q", n-1, err, want)
	}
}

// BenchmarkUnpackManyLayers: time per layer must stay flat as the count grows (linear unpacking).
func BenchmarkUnpackManyLayers(b *testing.B) {
	for _, n := range []int{250, 1000, 4000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			dir := manyLayerLayout(b, n)
			for i := 0; b.Loop(); i++ {
				if _, err := Unpack(b.Context(), "oci:"+dir, filepath.Join(b.TempDir(), strconv.Itoa(i)), WithMaxLayers(n)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/layer")
		})
	}
}
