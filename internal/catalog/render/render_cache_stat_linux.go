package render

import (
	"os"
	"syscall"
)

// fileStatOf extracts what the stat index compares; false when the platform does not say.
func fileStatOf(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{
		size:  fi.Size(),
		mtime: fi.ModTime().UnixNano(),
		ctime: st.Ctim.Nano(),
		ino:   uint64(st.Ino),
		dev:   uint64(st.Dev), //nolint:unconvert // uint32 on some linux ports
		mode:  uint64(fi.Mode()),
	}, true
}
