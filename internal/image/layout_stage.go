package image

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// stageLayout fills the empty folder dst with the OCI layout in src, if any: blobs are hard-linked
// (they are content-addressed and never rewritten), every other file (index.json, oci-layout) is
// copied, since go-containerregistry rewrites them in place. A symlink or special file in src is
// refused.
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
			return copyFile(path, target)
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

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
