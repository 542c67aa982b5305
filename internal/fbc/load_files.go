package fbc

import (
	"context"
	"io/fs"
	"slices"
)

// LoadFiles loads the given files (slash-separated paths relative to the root of fsys) as one
// catalog, as LoadDir loads a folder: .indexignore files among them apply, files are parsed in
// parallel and the result is in the order of files. fsys may be any file system (a git tree, an
// unpacked image); only Open is used.
func LoadFiles(ctx context.Context, fsys fs.FS, files []string, opts ...LoadOption) (*DeclarativeConfig, error) {
	files = slices.Clone(files)
	slices.Sort(files)
	return loadFiles(ctx, fsys, files, makeLoadOptions(opts))
}

// IsIndexIgnore reports whether a catalog file is an .indexignore file (which LoadFiles reads as
// patterns, not as blobs).
func IsIndexIgnore(file string) bool {
	i := len(file) - len(indexIgnoreFile)
	return i >= 0 && file[i:] == indexIgnoreFile && (i == 0 || file[i-1] == '/')
}
