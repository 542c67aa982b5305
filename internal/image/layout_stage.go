package image

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CopyLayout fills the empty folder dst with the OCI layout in src, if any, as the layout
// publisher stages one (see stageLayout).
func CopyLayout(src, dst string) error { return stageLayout(src, dst) }

// stageLayout fills the empty folder dst with the OCI layout in src, if any: blobs are hard-linked
// (they are content-addressed and never rewritten, and linking reads nothing), every other file
// (index.json, oci-layout) is copied within maxLayoutManifest, since go-containerregistry
// rewrites them in place. A symlink or special file in src is refused.
func stageLayout(src, dst string) error {
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file; an OCI layout holds only folders and files", path)
		case strings.HasPrefix(filepath.ToSlash(rel), "blobs/"):
			if err := os.Link(path, target); err == nil {
				return nil
			}
			return copyBlob(src, filepath.ToSlash(rel), target)
		default:
			return copyFile(path, target)
		}
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no layout yet: start an empty one
	}
	if err != nil {
		return fmt.Errorf("staging OCI layout %s: %w", src, err)
	}
	return nil
}

// copyFile copies a layout's index.json or oci-layout (bounded: they are small) into the stage.
func copyFile(src, dst string) error {
	data, err := layoutDir(filepath.Dir(src)).read(filepath.Base(src), maxLayoutManifest, manifestSize)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// copyBlob copies the blob rel of the layout src into dst (another file system: no hard link),
// within the image size limit.
func copyBlob(src, rel, dst string) error {
	f, fi, err := layoutDir(src).open(rel)
	if err != nil {
		return err
	}
	defer f.Close()
	if limit := maxUnpackSize(); fi.Size() > limit {
		return fmt.Errorf("%s/%s is larger than the image size limit (%d bytes; raise it with --max-image-size)", src, rel, limit)
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(f, fi.Size())); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
