// Package tmpdir makes opack's temporary folders in $TMPDIR: named opack-*, held under a lock
// (flock) while in use, so that Sweep — run at the start of every opack command — removes the
// folders of processes that were killed (their lock died with them) and never those of a live
// one.
package tmpdir

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Prefix starts the name of every folder Make creates.
const Prefix = "opack-"

var (
	mu    sync.Mutex
	locks = map[string]func(){}
)

// Make creates a folder $TMPDIR/opack-<name>-* and locks it until Remove.
func Make(name string) (string, error) {
	dir, err := os.MkdirTemp("", Prefix+name+"-*")
	if err != nil {
		return "", err
	}
	unlock, err := lock(dir)
	if err != nil {
		unlock = func() {}
	}
	mu.Lock()
	locks[dir] = unlock
	mu.Unlock()
	return dir, nil
}

// Remove deletes a folder made by Make and releases its lock.
func Remove(dir string) {
	mu.Lock()
	unlock := locks[dir]
	delete(locks, dir)
	mu.Unlock()
	os.RemoveAll(dir)
	if unlock != nil {
		unlock()
	}
}

// Sweep removes the opack-* folders of $TMPDIR nobody holds the lock of: what killed opack
// processes left behind. Where locks are not supported it removes nothing.
func Sweep() {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), Prefix) {
			continue
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		mu.Lock()
		_, ours := locks[dir]
		mu.Unlock()
		if ours {
			continue
		}
		if unlock, err := lock(dir); err == nil {
			os.RemoveAll(dir)
			unlock()
		}
	}
}

// Hold locks the file or folder p (a temporary sibling of an output being written) until
// release, so that SweepSiblings of a later run leaves it alone while this process lives.
func Hold(p string) (release func()) {
	unlock, err := lock(p)
	if err != nil {
		return func() {}
	}
	return unlock
}

// SweepSiblings removes the entries of dir matching pattern (filepath.Match) that nobody holds:
// the temporary siblings killed writers left.
func SweepSiblings(dir, pattern string) {
	matches, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, m := range matches {
		if unlock, err := lock(m); err == nil {
			os.RemoveAll(m)
			unlock()
		}
	}
}
