package project

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Errors of tryLock: another process holds the lock; the file system cannot lock the folder.
var (
	errLockBusy        = errors.New("lock held by another process")
	errLockUnsupported = errors.New("the file system does not support locking the project folder")
)

// lockPollInterval is how often a waiting build retries the project lock.
const lockPollInterval = 100 * time.Millisecond

// lockProject takes the project folder's lock: exclusive for a build (it swaps outputs in),
// shared for a check (it reads them), so that a check never sees a build half written and two
// builds never interleave their outputs. It waits, saying so once through logf, until the lock is
// free or ctx is done. The lock is the folder itself (flock on Unix, nothing elsewhere), so no file
// is left behind and a crashed build releases it.
func lockProject(ctx context.Context, dir string, exclusive bool, logf func(string, ...any)) (unlock func(), err error) {
	said := false
	for {
		unlock, err := tryLock(dir, exclusive)
		if errors.Is(err, errLockUnsupported) {
			logf("warning: not locking %s (%v): do not run two builds of it at once", dir, err)
			return func() {}, nil
		}
		if !errors.Is(err, errLockBusy) {
			if err != nil {
				return nil, fmt.Errorf("locking %s: %w", dir, err)
			}
			return unlock, nil
		}
		if !said {
			logf("waiting for another opack build or check in %s to finish", dir)
			said = true
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for another opack build or check in %s: %w", dir, ctx.Err())
		case <-time.After(lockPollInterval):
		}
	}
}
