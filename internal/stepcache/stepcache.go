// Package stepcache keeps the results of opack's steps in the user's cache, each addressed by the
// digest of exactly what the step read (as the go build cache addresses compilations): a result
// is found again only when every input is byte for byte the same, so a cached result is the
// result a cold run would give. The cache lives in opack's folder of the user's cache
// (internal/usercache: the user's alone, outside the project, never the repository's); an entry
// carries the SHA-256 of its payload, and one that is damaged, truncated or not opack's is a miss
// (and removed), never a result.
package stepcache

import (
	"bytes"
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
	"github.com/opack/opack/internal/version"
)

// format versions the entries (and every key: an opack of another version never reads them).
const format = "opack-step-cache/v1"

// maxEntry bounds an entry read back (a catalog's serve cache is the largest: tens of MB).
const maxEntry = 1 << 30

// Key is the digest of a step's kind and of everything it read.
type Key [sha256.Size]byte

// Hasher builds a Key: the step's kind, opack's version, then each input in order, each part
// prefixed with its length so that no two sequences of parts hash alike.
type Hasher struct{ h hashWriter }

type hashWriter interface {
	io.Writer
	Sum([]byte) []byte
}

// NewKey starts the key of a step of kind.
func NewKey(kind string) *Hasher {
	k := &Hasher{h: sha256.New()}
	k.String(format).String(version.String()).String(binary()).String(kind)
	return k
}

// binary identifies the running executable beyond its version: a development build (one version
// string for every rebuild of a checkout) changes its size or modification time when rebuilt, so
// a rebuilt opack never takes the results of the one before.
var binary = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "unknown"
	}
	return fmt.Sprintf("%s %d %d", exe, info.Size(), info.ModTime().UnixNano())
})

// String adds a string part.
func (k *Hasher) String(s string) *Hasher { return k.Bytes([]byte(s)) }

// Bytes adds a part.
func (k *Hasher) Bytes(b []byte) *Hasher {
	fmt.Fprintf(k.h, "%d:", len(b))
	k.h.Write(b)
	return k
}

// Sum returns the key.
func (k *Hasher) Sum() Key {
	var out Key
	copy(out[:], k.h.Sum(nil))
	return out
}

// Cache is a folder of entries; a nil *Cache (no usable cache folder, or --no-cache) misses
// every lookup and stores nothing.
type Cache struct {
	dir string
}

// Open returns the cache in opack's folder of the user's cache, which must lie outside root (the
// project): nil, with the reason, when there is no usable folder (no HOME, a read-only HOME, a
// folder another user could write). Callers run without a cache then.
func Open(root string) (*Cache, error) {
	base, err := usercache.Dir(root)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(base, "steps")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := usercache.Check(dir, false); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// OpenDir returns a cache kept in dir (tests).
func OpenDir(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir is the folder of the entries.
func (c *Cache) Dir() string { return c.dir }

func (c *Cache) path(k Key) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, h[:2], h)
}

// Get returns the payload stored under k. A missing entry, or one whose header or checksum does
// not hold (damaged, truncated, planted), is a miss; a damaged one is removed.
func (c *Cache) Get(k Key) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	p := c.path(k)
	data, err := readEntry(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			os.Remove(p)
		}
		return nil, false
	}
	return data, true
}

func readEntry(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxEntry {
		return nil, errors.New("not an entry")
	}
	if err := usercache.CheckInfo(p, fi, false); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxEntry+1))
	if err != nil {
		return nil, err
	}
	head := []byte(format + "\n")
	if !bytes.HasPrefix(raw, head) || len(raw) < len(head)+sha256.Size {
		return nil, errors.New("not an entry")
	}
	sum, payload := raw[len(head):len(head)+sha256.Size], raw[len(head)+sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, errors.New("damaged entry")
	}
	return payload, nil
}

// Put stores payload under k, atomically (a temporary file renamed into place): a killed run
// leaves no half entry.
func (c *Cache) Put(k Key, payload []byte) error {
	if c == nil {
		return nil
	}
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	sum := sha256.Sum256(payload)
	for _, part := range [][]byte{[]byte(format + "\n"), sum[:], payload} {
		if _, err := tmp.Write(part); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
