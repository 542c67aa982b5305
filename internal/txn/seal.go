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
)

// A transaction folder lies in the project, which is untrusted input: a pull request can add a
// .opack-txn-* folder of its own. opack applies a journal, and removes a staging folder, only
// when it carries a seal: an HMAC over the project's real path, the folder's name and the
// changes, keyed by a secret kept outside every project (the user's cache folder). A journal
// from a repository, another machine or another checkout does not verify and is never applied.

const keySize = 32

// keyFile is where the sealing key lives: $XDG_CACHE_HOME/opack/txn.key (os.UserCacheDir), or,
// without a home, a folder of the user's own in the temporary folder (never a project).
func keyFile() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf(".opack-cache-%d", os.Getuid()))
	}
	return filepath.Join(dir, "opack", "txn.key"), nil
}

var keyOnce = sync.OnceValues(loadKey)

// loadKey reads the sealing key, creating it on first use (atomically: two first builds agree).
func loadKey() ([]byte, error) {
	path, err := keyFile()
	if err != nil {
		return nil, err
	}
	if key, err := readKey(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating opack's transaction key: %w", err)
	}
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".txn.key-*")
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
	return readKey(path) // the key that won, if another opack created it first
}

func readKey(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
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
	key, err := keyOnce()
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
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
