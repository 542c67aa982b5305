//go:build !linux

package manifest

import (
	"errors"
	"io/fs"
	"os"
)

// swap puts the folder tmp at dir; the old dir, if any, ends at tmp.
func swap(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	return swapRenames(tmp, dir)
}
