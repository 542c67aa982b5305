// Package tmpdir makes opack's temporary folders in $TMPDIR: named opack-*, locked (flock) while in
// use and marked with an owner file (.opack-owner), so that Sweep — run at the start of every opack
// command — removes the folders of processes that were killed (their lock died with them), never
// those of a live one, and never a user's own $TMPDIR/opack-* folder (no owner file, not empty).
package tmpdir

import (
	"errors"
	"fmt"
	"io/fs"
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

// ownerFile marks a folder made by Make (the folder's own lock says its process is alive).
const ownerFile = ".opack-owner"

// Make creates a folder $TMPDIR/opack-<name>-*, owned (locked) until Remove, and returns an empty
// folder inside it for the caller's use (callers unpack into it and expect it empty).
func Make(name string) (string, error) {
	var err error
	for range 5 { // a Sweep may take a folder in the instant between its creation and its lock
		var top string
		var unlock func()
		if top, unlock, err = create(name); err != nil {
			continue
		}
		dir := filepath.Join(top, "work")
		if err = os.Mkdir(dir, 0o700); err != nil {
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
	if errors.Is(err, fs.ErrNotExist) {
		// A container image of opack alone (FROM scratch) has no /tmp.
		return "", fmt.Errorf("%w: opack needs a temporary folder: set TMPDIR to a writable folder (in a container without /tmp, mount one: --tmpfs /tmp)", err)
	}
	return "", err
}

// create makes the top folder, locks it, and marks it with the owner file.
func create(name string) (string, func(), error) {
	top, err := os.MkdirTemp("", Prefix+name+"-*")
	if err != nil {
		return "", nil, err
	}
	unlock, err := lock(top)
	if errors.Is(err, errors.ErrUnsupported) {
		unlock, err = func() {}, nil
	}
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(top, ownerFile), nil, 0o600); err != nil {
		unlock() // a Sweep removed the empty folder before it was locked
		return "", nil, err
	}
	return top, unlock, nil
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
	removeOwned(h.top)
	h.unlock()
}

// Sweep removes the opack-* folders of $TMPDIR nobody holds the lock of and that are opack's (they
// hold the owner file) or empty (a process killed as it created one): what killed opack processes
// left behind. Where locks are not supported it removes nothing.
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
		if unlock, err := lock(dir); err == nil {
			if removable(dir) {
				removeOwned(dir)
			}
			unlock()
		}
	}
}

// removeOwned removes an owned folder with its owner file last, so that a removal cut short by a
// kill leaves a folder the next Sweep still knows as opack's.
func removeOwned(top string) {
	entries, _ := os.ReadDir(top)
	for _, e := range entries {
		if e.Name() != ownerFile {
			os.RemoveAll(filepath.Join(top, e.Name()))
		}
	}
	os.RemoveAll(top)
}

// removable: dir holds opack's owner file, or nothing at all.
func removable(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, ownerFile)); err == nil {
		return true
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
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
