package image

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/stepcache"
)

// ServeCacheStore keeps built serve caches, addressed by the digest of the catalog they were
// built from (a *stepcache.Cache): a catalog byte for byte the same gets the same serve cache
// without building it again.
type ServeCacheStore interface {
	Get(stepcache.Key) ([]byte, bool)
	Put(stepcache.Key, []byte) error
}

// WithServeCacheStore keeps the serve caches Catalog builds in s.
func WithServeCacheStore(s ServeCacheStore) Option { return func(o *options) { o.serveCacheStore = s } }

// serveCacheKey is the key of the serve cache of the catalog in dir: operator-registry's cache
// code (its module version) and every file of the catalog as the image presents it (path, mode,
// content).
func serveCacheKey(dir string) (stepcache.Key, error) {
	k := stepcache.NewKey("serve-cache").String(servecacheVersion)
	fsys := newLayerFS(dir)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		k.String(fmt.Sprintf("%s %o", p, info.Mode()))
		if d.Type().IsRegular() {
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			k.Bytes(sum[:])
		}
		return nil
	})
	return k.Sum(), err
}

// servecacheVersion is the operator-registry release whose cache code builds serve caches.
const servecacheVersion = "operator-registry v1.73.0"

// packTree writes the files and folders below dir as a tar stream, in path order (modes kept).
func packTree(dir string) ([]byte, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p) // the folder itself too (as "."): its mode is part of the layer
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(dir, p)
		h := &tar.Header{Name: filepath.ToSlash(rel), Mode: int64(fi.Mode().Perm())}
		switch {
		case fi.IsDir():
			h.Typeflag = tar.TypeDir
		case fi.Mode().IsRegular():
			h.Typeflag, h.Size = tar.TypeReg, fi.Size()
		default:
			return nil, fmt.Errorf("%s: not a file or folder", p)
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			_, err = io.Copy(tw, f)
			f.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes(), tw.Close()
}

// unpackTree writes a packTree stream into the empty folder dir: folders and files only, every
// path below dir.
func unpackTree(data []byte, dir string) error {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(h.Name)
		if name == "." && h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.Chmod(dir, fs.FileMode(h.Mode).Perm()); err != nil {
				return err
			}
			continue
		}
		if !fs.ValidPath(name) || strings.HasPrefix(name, "..") {
			return fmt.Errorf("entry %q leaves the folder", h.Name)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		mode := fs.FileMode(h.Mode).Perm()
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			if err := os.Chmod(p, mode); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, io.LimitReader(tr, h.Size))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			if err := os.Chmod(p, mode); err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q: not a file or folder", h.Name)
		}
	}
}
