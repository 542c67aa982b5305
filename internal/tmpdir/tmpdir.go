// Package tmpdir makes opack's temporary folders in $TMPDIR: named opack-*, each holding an owner
// file (.opack-owner) locked (flock) while the folder is in use, so that Sweep — run at the start
// of every opack command — removes the folders of processes that were killed (their lock died
// with them), never those of a live one, and never a folder without opack's owner file (a user's
// own $TMPDIR/opack-notes, a folder another opack process is still creating).
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

// ownerFile marks a folder made by Make; its lock says the process that made it is alive.
const ownerFile = ".opack-owner"

// Make creates a folder $TMPDIR/opack-<name>-* and locks it until Remove.
func Make(name string) (string, error) {
	dir, err := os.MkdirTemp("", Prefix+name+"-*")
	if err != nil {
		return "", err
	}
	unlock, err := own(dir)
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
		if unlock, err := lock(filepath.Join(dir, ownerFile)); err == nil {
			os.RemoveAll(dir)
			unlock()
		}
	}
}

// own writes dir's owner file already locked: it is created under another name, locked, then
// renamed into place (the lock follows the file), so no Sweep ever sees it unlocked while this
// process lives.
func own(dir string) (func(), error) {
	f, err := os.CreateTemp(dir, ".opack-owner-*")
	if err != nil {
		return nil, err
	}
	name := f.Name()
	f.Close()
	unlock, err := lock(name)
	if err != nil {
		os.Remove(name)
		return nil, err
	}
	if err := os.Rename(name, filepath.Join(dir, ownerFile)); err != nil {
		unlock()
		os.Remove(name)
		return nil, err
	}
	return unlock, nil
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
