package manifest

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// swap puts the folder tmp at dir with one atomic exchange; the old dir, if any, ends at tmp.
func swap(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return swapRenames(tmp, dir) // the filesystem has no exchange
	}
	return err
}
