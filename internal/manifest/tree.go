package manifest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files lists the regular files below root as sorted slash-separated relative paths.
// A symlink is followed only when its target stays inside root and is a regular file;
// a symlink leaving the tree, a symlinked folder, a device, socket or pipe is an error
// naming the file. More than the file limit is an error too.
func Files(root string, opts ...Option) ([]string, error) {
	o := makeOptions(opts)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", root, err)
	}
	if o.linkRoot != "" {
		abs, err := filepath.Abs(o.linkRoot)
		if err == nil {
			realRoot, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", o.linkRoot, err)
		}
	}
	var files []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		if d.IsDir() {
			return nil
		}
		if err := checkEntry(realRoot, path, d); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		if len(files) > o.maxFiles {
			return &LimitError{File: root, What: "number of files", Limit: int64(o.maxFiles)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil // WalkDir visits in lexical order
}

// checkEntry accepts regular files and symlinks to regular files inside realRoot.
func checkEntry(realRoot, path string, d fs.DirEntry) error {
	mode := d.Type()
	switch {
	case mode.IsRegular():
		return nil
	case mode&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("%s is a symlink that cannot be resolved: %w; replace it with the file itself", path, err)
		}
		if filepath.IsAbs(realRoot) && !filepath.IsAbs(target) {
			if target, err = filepath.Abs(target); err != nil {
				return fmt.Errorf("reading %s: %w", path, err)
			}
		}
		if !Within(realRoot, target) {
			return fmt.Errorf("%s is a symlink to %s, outside %s; opack refuses symlinks leaving the tree: copy the file in instead", path, target, realRoot)
		}
		fi, err := os.Stat(target)
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is a symlink to %s, which is not a regular file; replace it with the file itself", path, target)
		}
		return nil
	default:
		return fmt.Errorf("%s is not a regular file (%s); remove it from the tree", path, mode.Type())
	}
}

// Within reports whether path is root or lies below it (both cleaned, no symlink resolution).
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel))
}

// ReadTree reads the object streams of every regular file below root, in path order.
func ReadTree(root string, opts ...Option) ([]Doc, error) {
	files, err := Files(root, opts...)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, rel := range files {
		d, err := ReadFile(filepath.Join(root, filepath.FromSlash(rel)), opts...)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d...)
	}
	return docs, nil
}
