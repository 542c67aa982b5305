// Package usercache finds opack's folder in the user's cache ($XDG_CACHE_HOME/opack or
// ~/.cache/opack) and checks that it is the user's alone: owned by the effective user, writable
// by no one else, and outside the project opack works on. What opack keeps there (the key that
// seals its transactions, caches of rendered and checked inputs) is trusted by later runs, so a
// folder another local user or the repository under review could write is refused, never used.
package usercache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// UnsafeError is a folder or file of opack's cache that someone other than the user could have
// written: it is refused, with what to do.
type UnsafeError struct {
	Path   string
	Reason string
	Fix    string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s %s; opack trusts what it keeps there (its transaction key, its caches), so it uses only a folder of the user's alone: %s",
		e.Path, e.Reason, e.Fix)
}

// elsewhere is the fix of a folder opack cannot take as the user's.
const elsewhere = "or set XDG_CACHE_HOME to a folder of your own, outside every project"

// UnavailableError says why the user has no cache folder opack can use (no HOME, a read-only
// HOME): callers that can work without one fall back, the others report it.
type UnavailableError struct {
	Err error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("no user cache folder of opack's: %v (set XDG_CACHE_HOME to a writable folder of your own)", e.Err)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// Dir returns opack's folder in the user's cache (os.UserCacheDir + "/opack"), created with mode
// 0700 when missing, after checking that it is the user's alone (Check) and lies outside root
// (the project's real path; "" when there is none). A missing or read-only cache is an
// *UnavailableError; a folder someone else could write, or one inside root, an *UnsafeError.
func Dir(root string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", &UnavailableError{Err: err}
	}
	dir := filepath.Join(base, "opack")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrNotExist) {
			return "", &UnavailableError{Err: err}
		}
		return "", fmt.Errorf("creating opack's cache folder: %w", err)
	}
	if err := Check(dir, false); err != nil {
		return "", err
	}
	if err := Outside(dir, root); err != nil {
		return "", err
	}
	return dir, nil
}

// Check verifies that path (a folder or file, not followed if a symlink) belongs to the
// effective user and that no one else may write it; a secret (a key) must not be readable by
// anyone else either.
func Check(path string, secret bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	return CheckInfo(path, fi, secret)
}

// CheckInfo is Check of what is already known of path (the fstat of an open file).
func CheckInfo(path string, fi fs.FileInfo, secret bool) error {
	mode := fi.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		return &UnsafeError{Path: path, Reason: "is a symlink", Fix: "replace it with a folder or file of your own " + elsewhere}
	case !mode.IsDir() && !mode.IsRegular():
		return &UnsafeError{Path: path, Reason: "is not a regular file or folder (" + mode.Type().String() + ")", Fix: "remove it " + elsewhere}
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("belongs to uid %d, not to the user running opack (uid %d)", st.Uid, os.Geteuid()),
			Fix: "remove it (another user may have planted it) " + elsewhere}
	}
	if mode.Perm()&0o022 != 0 {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("is writable by others (mode %s)", mode.Perm()),
			Fix: "remove it if you did not make it so, else chmod go-rwx " + path + " " + elsewhere}
	}
	if secret && mode.Perm()&0o077 != 0 {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("is readable by others (mode %s)", mode.Perm()),
			Fix: "remove it (a new key is made; anyone who read it could seal a journal) " + elsewhere}
	}
	return nil
}

// Outside refuses dir when it lies inside root (both resolved): a cache in the project would be
// the repository's to write.
func Outside(dir, root string) error {
	if root == "" {
		return nil
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	if d == r || strings.HasPrefix(d, r+string(filepath.Separator)) {
		return &UnsafeError{Path: dir, Reason: "lies inside the project " + root + " (XDG_CACHE_HOME or HOME points into it), so the repository could write it",
			Fix: "set XDG_CACHE_HOME to a folder of your own, outside every project"}
	}
	return nil
}
