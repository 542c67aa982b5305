package packagemanifest

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"

	"github.com/opack/opack/internal/manifest"
)

// measure computes the bundle's size and its gzip+base64 size as the loader does (every file under the
// manifests folder). The compressed size only matters near operator-framework/api's limits (a warning above
// 85% of 1 MiB, an error above it), so it is computed exactly only when an upper bound of it (deflate never
// grows data by more than 5 bytes per 16 KiB block, plus the gzip frame) could reach them; otherwise the
// bound is kept.
func (lb *Bundle) measure() error {
	type file struct {
		src  *SourceFile
		size int64
	}
	var files []file
	err := filepath.Walk(lb.manifestsDir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		}
		src, ok := lb.files.files[path]
		if !ok {
			raw, err := manifest.ReadBytes(path)
			if err != nil {
				return err
			}
			src = &SourceFile{Path: path, Raw: raw}
		}
		files = append(files, file{src: src, size: info.Size()})
		return nil
	})
	if err != nil {
		return err
	}
	var size, bound int64
	for _, f := range files {
		size += f.size
		bound += int64(base64Len(len(f.src.Raw) + 5*(len(f.src.Raw)/16384+1) + 32))
	}
	lb.Manifests.Size = size
	if float64(bound) <= 0.8*float64(maxBundleSize) {
		lb.Manifests.CompressedSize = bound
		return nil
	}
	for _, f := range files {
		n, err := lb.files.shared.gzipSize(f.src)
		if err != nil {
			return err
		}
		lb.Manifests.CompressedSize += int64(base64Len(n))
	}
	return nil
}

// maxBundleSize is operator-framework/api's limit on a bundle's gzip+base64 size.
const maxBundleSize = 1 << 20

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// gzipSize returns the size of data compressed by compress/gzip at the default level.
func gzipSize(data []byte) (int, error) {
	var cw countWriter
	zw := gzip.NewWriter(&cw)
	if _, err := io.Copy(zw, bytes.NewReader(data)); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return cw.n, nil
}

// base64Len is the length of the padded standard base64 encoding of n bytes.
func base64Len(n int) int { return (n + 2) / 3 * 4 }
