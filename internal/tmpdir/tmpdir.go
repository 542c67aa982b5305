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

// held is a folder made by Make: the top folder in $TMPDIR and the release of its owner lock.
type held struct {
	top    string
	unlock func()
}

var (
	mu    sync.Mutex
	locks = map[string]held{} // by the path Make returned
	tops  = map[string]bool{} // the top folders of locks
)

// ownerFile marks a folder made by Make; its lock says the process that made it is alive.
const ownerFile = ".opack-owner"

// Make creates a folder $TMPDIR/opack-<name>-*, owned (locked) until Remove, and returns an empty
// folder inside it for the caller's use (callers unpack into it and expect it empty).
func Make(name string) (string, error) {
	top, err := os.MkdirTemp("", Prefix+name+"-*")
	if err != nil {
		return "", err
	}
	unlock, err := own(top)
	if err != nil {
		unlock = func() {}
	}
	dir := filepath.Join(top, "work")
	if err := os.Mkdir(dir, 0o700); err != nil {
		unlock()
		os.RemoveAll(top)
		return "", err
	}
	mu.Lock()
	locks[dir] = held{top: top, unlock: unlock}
	tops[top] = true
	mu.Unlock()
	return dir, nil
}

// Remove deletes a folder made by Make and releases its lock.
func Remove(dir string) {
	mu.Lock()
	h, ok := locks[dir]
	delete(locks, dir)
	delete(tops, h.top)
	mu.Unlock()
	if !ok {
		os.RemoveAll(dir)
		return
	}
	os.RemoveAll(h.top)
	h.unlock()
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
		ours := tops[dir]
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
