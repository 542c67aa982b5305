package kustomize

import (
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// WithFiles has the build read the given files (path → content) as if they were written: a
// generated file (the base CSV regenerated from the Go types) takes part in the build without
// touching the disk. Relative paths are taken from the working directory; the sandbox applies.
func WithFiles(files map[string][]byte) Option {
	return func(o *options) {
		if len(files) == 0 {
			return
		}
		o.files = map[string][]byte{}
		for p, data := range files {
			o.files[canonical(p)] = data
		}
	}
}

// canonical is the absolute path with symbolic links resolved as far as the path exists, as
// kustomize sees it (a generated file may lie in a folder that does not exist yet).
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	dir, rest := filepath.Dir(abs), filepath.Base(abs)
	for {
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(d, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		dir, rest = parent, filepath.Join(filepath.Base(dir), rest)
	}
}

// overlayFS reads the files of WithFiles in place of those below it.
type overlayFS struct {
	filesys.FileSystem
	files map[string][]byte
}

func (o overlayFS) ReadFile(p string) ([]byte, error) {
	if data, ok := o.files[canonical(p)]; ok {
		return data, nil
	}
	return o.FileSystem.ReadFile(p)
}

func (o overlayFS) Exists(p string) bool {
	c := canonical(p)
	_, ok := o.files[c]
	return ok || o.holdsFiles(c) || o.FileSystem.Exists(p)
}

func (o overlayFS) IsDir(p string) bool {
	c := canonical(p)
	if _, ok := o.files[c]; ok {
		return false
	}
	return o.holdsFiles(c) || o.FileSystem.IsDir(p)
}

// CleanedAbs answers for the overlay's files and their folders without the disk, where they may
// not exist yet (the base CSV of a project that never ran generate kustomize manifests).
func (o overlayFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	c := canonical(p)
	if _, ok := o.files[c]; ok {
		return filesys.ConfirmedDir(filepath.Dir(c)), filepath.Base(c), nil
	}
	if !o.FileSystem.Exists(p) && o.holdsFiles(c) {
		return filesys.ConfirmedDir(c), "", nil
	}
	return o.FileSystem.CleanedAbs(p)
}

// holdsFiles reports whether the folder dir holds a file of the overlay.
func (o overlayFS) holdsFiles(dir string) bool {
	for f := range o.files {
		if strings.HasPrefix(f, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
