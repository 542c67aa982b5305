//go:build unix

package tmpdir

import (
	"os"
	"syscall"
)

// lock takes an exclusive flock on the file or folder p without waiting.
func lock(p string) (func(), error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
