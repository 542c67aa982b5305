package emit

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/manifest"
)

// Write writes files below dir, replacing each top-level folder they name (olmv0/, olmv1/) as a whole
// and atomically: a stale file from an earlier run disappears, and if anything fails the folder is left
// as it was. Folders the files do not name are not touched.
func Write(dir string, files []File) error {
	byDir := map[string][]File{}
	for _, f := range files {
		top, rest, ok := strings.Cut(f.Path, "/")
		if !ok || top == "" || rest == "" || strings.Contains(rest, "/") || !filepath.IsLocal(f.Path) {
			return fmt.Errorf("writing deploy manifests: file %q is not <folder>/<name>", f.Path)
		}
		byDir[top] = append(byDir[top], f)
	}
	tops := make([]string, 0, len(byDir))
	for top := range byDir {
		tops = append(tops, top)
	}
	sort.Strings(tops)
	for _, top := range tops {
		err := manifest.ReplaceDir(filepath.Join(dir, top), func(tmp string) error {
			for _, f := range byDir[top] {
				if err := os.WriteFile(filepath.Join(tmp, path.Base(f.Path)), f.Data, 0o644); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(dir, top), err)
		}
	}
	return nil
}
