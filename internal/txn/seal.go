package txn

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/opack/opack/internal/usercache"
)

// A transaction folder lies in the project, which is untrusted input: a pull request can add a
// .opack-txn-* folder of its own. opack applies a journal, and removes a staging folder, only
// when it carries a seal: an HMAC over the project's real path, the folder's name and the
// changes, keyed by a secret kept outside every project (the user's cache folder, which must be
// the user's alone: internal/usercache). A journal from a repository, another machine or another
// checkout does not verify and is never applied. Without a usable cache folder (no HOME, a
// read-only HOME) the key lives in this process only: builds still commit atomically, and a
// journal an interrupted build left is refused with what to do, never applied unverified.

const keySize = 32

// sealKey is the key of this process: read from (or made in) the user's cache folder, or, when
// the user has none (no HOME, a read-only HOME), made for this process alone (ephemeral).
type sealKey struct {
	key []byte
	dir string // the folder holding the key file; "" when ephemeral
	// ephemeral says why the key is this process's alone: a journal of another run cannot be
	// verified, so it is refused (never applied) with this reason.
	ephemeral string
}

var keyOnce = sync.OnceValues(loadKey)

// keyFor returns the sealing key for the project at realRoot: the user's key, after checking
// that its folder lies outside the project (a key the repository could write would let it seal
// its own journals).
func keyFor(realRoot string) (*sealKey, error) {
	k, err := keyOnce()
	if err != nil {
		return nil, err
	}
	if k.dir != "" {
		if err := usercache.Outside(k.dir, realRoot); err != nil {
			return nil, fmt.Errorf("opack's transaction key: %w", err)
		}
	}
	return k, nil
}

// loadKey reads the sealing key from opack's folder in the user's cache (usercache.Dir: the
// user's alone), creating it on first use (atomically: two first builds agree). Without a usable
// cache folder the key is made for this process only.
func loadKey() (*sealKey, error) {
	dir, err := usercache.Dir("")
	var ue *usercache.UnavailableError
	if errors.As(err, &ue) {
		key := make([]byte, keySize)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		return &sealKey{key: key, ephemeral: ue.Error()}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("opack's transaction key: %w", err)
	}
	path := filepath.Join(dir, "txn.key")
	if key, err := readKey(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return &sealKey{key: key, dir: dir}, err
	}
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(dir, ".txn.key-*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("creating opack's transaction key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing opack's transaction key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("creating opack's transaction key %s: %w", path, err)
	}
	key, err = readKey(path) // the key that won, if another opack created it first
	return &sealKey{key: key, dir: dir}, err
}

// readKey reads the key file at path: a regular file of the user's alone (usercache.Check, as a
// secret), exactly keySize bytes.
func readKey(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("opack's transaction key: %w", &usercache.UnsafeError{Path: path, Reason: "is a symlink", Fix: "remove it (a new key is made)"})
		}
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := usercache.CheckInfo(path, fi, true); err != nil {
		return nil, fmt.Errorf("opack's transaction key: %w", err)
	}
	key, err := io.ReadAll(io.LimitReader(f, keySize+1))
	if err != nil {
		return nil, fmt.Errorf("reading opack's transaction key %s: %w", path, err)
	}
	if len(key) != keySize {
		return nil, fmt.Errorf("opack's transaction key %s is not %d bytes: remove it (a new one is made; interrupted builds then cannot be finished)", path, keySize)
	}
	return key, nil
}

// seal is the HMAC of what a folder of the transaction is for (kind "journal" with the changes'
// JSON, or "stage"), bound to the project's real path and the folder's name.
func seal(realRoot, dirName, kind string, payload []byte) (string, error) {
	k, err := keyFor(realRoot)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k.key)
	for _, part := range [][]byte{[]byte("opack-txn-v1"), []byte(realRoot), []byte(dirName), []byte(kind), payload} {
		fmt.Fprintf(m, "%d:", len(part))
		m.Write(part)
	}
	return hex.EncodeToString(m.Sum(nil)), nil
}

// verify reports whether got is the seal of (realRoot, dirName, kind, payload).
func verify(realRoot, dirName, kind string, payload []byte, got string) bool {
	want, err := seal(realRoot, dirName, kind, payload)
	return err == nil && hmac.Equal([]byte(want), []byte(got))
}

// unverifiable says, when this process's key is its own (no user cache folder), why a journal
// of another run cannot be verified; "" otherwise.
func unverifiable() string {
	if k, err := keyOnce(); err == nil && k.ephemeral != "" {
		return k.ephemeral
	}
	return ""
}
