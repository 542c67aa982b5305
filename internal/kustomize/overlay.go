package kustomize

import (
	"path/filepath"

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

// canonical is the absolute path with symbolic links of its folder resolved, as kustomize sees it.
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(d, filepath.Base(abs))
	}
	return abs
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
	_, ok := o.files[canonical(p)]
	return ok || o.FileSystem.Exists(p)
}

func (o overlayFS) IsDir(p string) bool {
	if _, ok := o.files[canonical(p)]; ok {
		return false
	}
	return o.FileSystem.IsDir(p)
}
