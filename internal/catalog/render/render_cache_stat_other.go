//go:build !linux

package catalog

import "os"

// fileStatOf reports false: without a ctime the stat index cannot see an edit whose mtime was
// restored, so every file of a bundle folder is read to find its cache key.
func fileStatOf(os.FileInfo) (fileStat, bool) { return fileStat{}, false }
