package image

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Fixed metadata of every entry in a built layer, so that only content and paths reach the digest.
const (
	dirMode  = 0o755
	fileMode = 0o644
)

// layerTime is the mtime of every entry (the Unix epoch), independent of SOURCE_DATE_EPOCH so that
// identical content gives identical layers.
var layerTime = time.Unix(0, 0).UTC()

// tree copies the directory src to dst (a slash-separated path without a leading slash) in a layer.
// With keepModes its entries keep their permission bits from disk and belong to cacheUID:0 instead of
// the fixed modes and root (opm's serve cache, whose digest covers the permission bits).
type tree struct {
	src, dst  string
	keepModes bool
}

// cacheUID owns the files of a serve cache in a catalog image, as in opm's own catalog images, where
// `opm serve --cache-only` runs as USER 1001; group 0 covers the arbitrary UIDs of OpenShift.
const cacheUID = 1001

// buildLayer writes trees into one reproducible tar layer: entries in lexical order, parent
// directories first, uid/gid 0, fixed modes and mtimes. Symlinks and special files are refused.
func buildLayer(trees []tree, mt types.MediaType) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	done := map[string]bool{}
	for _, t := range trees {
		if err := addParents(tw, t.dst, done); err != nil {
			return nil, err
		}
		if err := addTree(tw, t, done); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("closing layer: %w", err)
	}
	b := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}, tarball.WithMediaType(mt), tarball.WithCompressedCaching)
}

// addParents writes directory entries for every ancestor of dst not written yet.
func addParents(tw *tar.Writer, dst string, done map[string]bool) error {
	parent := path.Dir(dst)
	if parent == "." || done[parent] {
		return nil
	}
	if err := addParents(tw, parent, done); err != nil {
		return err
	}
	done[parent] = true
	return writeDir(tw, parent, parentMode(parent), 0)
}

// parentMode is the mode of a directory written as a parent of a tree: /tmp keeps its usual 1777 (it
// is a parent of opm's serve cache, and may replace a base image's /tmp).
func parentMode(name string) int64 {
	if name == "tmp" {
		return 0o1777
	}
	return dirMode
}

// addTree walks t.src in lexical order and writes its directories and regular files below t.dst.
func addTree(tw *tar.Writer, t tree, done map[string]bool) error {
	return filepath.WalkDir(t.src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		rel, err := filepath.Rel(t.src, p)
		if err != nil {
			return err
		}
		name := path.Join(t.dst, filepath.ToSlash(rel))
		mode, uid := int64(-1), 0
		if t.keepModes {
			fi, err := d.Info()
			if err != nil {
				return fmt.Errorf("reading %s: %w", p, err)
			}
			mode, uid = int64(fi.Mode().Perm()), cacheUID
		}
		switch {
		case d.IsDir():
			if done[name] {
				return nil
			}
			done[name] = true
			if mode < 0 {
				mode = dirMode
			}
			return writeDir(tw, name, mode, uid)
		case d.Type().IsRegular():
			if mode < 0 {
				mode = fileMode
			}
			return writeFile(tw, p, name, mode, uid)
		default:
			return fmt.Errorf("packing %s: not a regular file or directory (%s); opack packs regular files only, replace it with a copy", p, d.Type())
		}
	})
}

func writeDir(tw *tar.Writer, name string, mode int64, uid int) error {
	hdr := &tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: uid, ModTime: layerTime}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("writing layer entry %s: %w", hdr.Name, err)
	}
	return nil
}

func writeFile(tw *tar.Writer, src, name string, mode int64, uid int) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Uid: uid, Size: int64(len(data)), ModTime: layerTime}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("writing layer entry %s: %w", name, err)
	}
	if _, err := tw.Write(data); err != nil {
		return fmt.Errorf("writing layer entry %s: %w", name, err)
	}
	return nil
}

// layerType is the layer media type matching a manifest media type.
func layerType(manifest types.MediaType) types.MediaType {
	if manifest == types.DockerManifestSchema2 {
		return types.DockerLayer
	}
	return types.OCILayer
}
