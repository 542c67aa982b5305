package image

import (
	"io/fs"
	"os"
	"time"
)

// layerFS presents a folder as a layer built from it is unpacked: the same names and contents, every
// directory dirMode and every file fileMode, mtimes layerTime. opm's serve cache digests the catalog's
// permission bits, so the cache must be built against this view, not against the modes on disk.
type layerFS struct{ fsys fs.FS }

func newLayerFS(dir string) layerFS { return layerFS{fsys: os.DirFS(dir)} }

func (l layerFS) Open(name string) (fs.File, error) {
	f, err := l.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return layerFile{f}, nil
}

func (l layerFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := fs.Stat(l.fsys, name)
	if err != nil {
		return nil, err
	}
	return layerInfo{fi}, nil
}

func (l layerFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(l.fsys, name)
	return viewEntries(entries), err
}

func viewEntries(entries []fs.DirEntry) []fs.DirEntry {
	out := make([]fs.DirEntry, len(entries))
	for i, e := range entries {
		out[i] = layerEntry{e}
	}
	return out
}

type layerFile struct{ fs.File }

func (f layerFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return layerInfo{fi}, nil
}

func (f layerFile) ReadDir(n int) ([]fs.DirEntry, error) {
	d, ok := f.File.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Err: fs.ErrInvalid}
	}
	entries, err := d.ReadDir(n)
	return viewEntries(entries), err
}

type layerEntry struct{ fs.DirEntry }

func (e layerEntry) Info() (fs.FileInfo, error) {
	fi, err := e.DirEntry.Info()
	if err != nil {
		return nil, err
	}
	return layerInfo{fi}, nil
}

type layerInfo struct{ fs.FileInfo }

func (i layerInfo) Mode() fs.FileMode {
	if i.FileInfo.IsDir() {
		return fs.ModeDir | dirMode
	}
	return i.FileInfo.Mode().Type() | fileMode
}

func (i layerInfo) ModTime() time.Time { return layerTime }

// Sys hides the file's owner on disk: a layer's entries belong to root.
func (i layerInfo) Sys() any { return nil }
