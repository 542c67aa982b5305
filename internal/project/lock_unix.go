//go:build unix

package project

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

func tryLock(dir string, exclusive bool) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		switch {
		case errors.Is(err, syscall.EWOULDBLOCK):
			return nil, errLockBusy
		case errors.Is(err, syscall.EBADF), errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP),
			errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EINVAL):
			// NFS emulates flock with fcntl locks, which want a file open for writing; some
			// FUSE and CIFS mounts have no locks at all.
			return nil, fmt.Errorf("%w: %w", errLockUnsupported, err)
		}
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
