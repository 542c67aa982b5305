package rootfs

import (
	"io/fs"
	"os"

	"github.com/opack/opack/internal/manifest"
)

// FS returns the files below dir as an fs.FS for libraries that read one (deploy templates): an
// os.Root on dir, so no symlink takes a read out of it, that opens only folders and regular files
// within the file-size limit. The root stays open for the life of the process.
func FS(dir string) (fs.FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return confinedFS{dir: dir, fsys: r.FS()}, nil
}

type confinedFS struct {
	dir  string
	fsys fs.FS
}

func (c confinedFS) Open(name string) (fs.File, error) {
	fi, err := fs.Stat(c.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, &SpecialFileError{Path: c.dir + "/" + name, Mode: fi.Mode()}
	}
	if limit := manifest.DefaultLimits().MaxFileSize; fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, &manifest.LimitError{File: c.dir + "/" + name, What: "file size", Limit: limit}
	}
	return c.fsys.Open(name)
}
