package diff

import (
	"context"
	"crypto/sha1"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/parallel"
	"github.com/opack/opack/internal/tmpdir"
)

// GitPrefix starts a BASE or HEAD read from a git repository: git:REV:PATH.
const GitPrefix = "git:"

// side is one catalog of the comparison: its files and the git blob hash of each, computed
// without decoding anything.
type side struct {
	arg     string // as the user gave it
	prefix  string // what file names are joined to in findings ("catalog", "catalog" in the repo)
	fsys    fs.FS
	hashes  map[string]plumbing.Hash // file (slash path below the catalog) → git blob hash
	cleanup func()
	git     bool // read from a git object database (reading a file inflates it)
}

// file names a catalog file in findings: the folder or repository path joined with it.
func (s *side) file(f string) string {
	if s.prefix == "" || s.prefix == "." {
		return f
	}
	return strings.TrimSuffix(s.prefix, "/") + "/" + f
}

// openSide opens a folder, a catalog image or git:REV:PATH (the repository found from dir).
func openSide(ctx context.Context, arg, dir string, images image.Puller) (*side, error) {
	if strings.HasPrefix(arg, GitPrefix) {
		return openGit(arg, dir)
	}
	src, err := image.ParseSource(arg)
	if err != nil {
		return nil, err
	}
	if !src.IsImage() {
		return openDir(ctx, arg, src.Path, arg)
	}
	return openImage(ctx, arg, src.Ref, images)
}

// openDir lists the files below dir (or dir itself, a catalog of one file) and hashes each as
// git would.
func openDir(ctx context.Context, arg, dir, prefix string) (*side, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("reading catalog %s: %w", arg, err)
	}
	var files []string
	switch {
	case fi.IsDir():
		if files, err = manifest.Files(dir, manifest.WithMaxFiles(fbc.MaxFiles)); err != nil {
			return nil, fmt.Errorf("reading catalog %s: %w", arg, err)
		}
	case fi.Mode().IsRegular():
		// A catalog kept as one file (several catalogs side by side in one folder).
		files, dir, prefix = []string{filepath.Base(dir)}, filepath.Dir(dir), filepath.Dir(prefix)
	default:
		return nil, fmt.Errorf("reading catalog %s: not a folder or a file", arg)
	}
	hashes := make([]plumbing.Hash, len(files))
	errs := make([]error, len(files))
	parallel.ForEach(ctx, len(files), nil, func(i int) {
		hashes[i], errs[i] = hashFile(filepath.Join(dir, filepath.FromSlash(files[i])), files[i])
	})
	s := &side{arg: arg, prefix: prefix, fsys: os.DirFS(dir), hashes: map[string]plumbing.Hash{}, cleanup: func() {}}
	for i, f := range files {
		if errs[i] != nil {
			return nil, fmt.Errorf("reading catalog %s: %w", arg, errs[i])
		}
		s.hashes[f] = hashes[i]
	}
	return s, ctx.Err()
}

// openImage unpacks a catalog image into a temporary folder (removed by cleanup) and opens the
// folder its configs label names.
func openImage(ctx context.Context, arg, ref string, images image.Puller) (*side, error) {
	if images == nil {
		images = image.NewPuller()
	}
	tmp, err := tmpdir.Make("catalog-diff")
	if err != nil {
		return nil, err
	}
	dst := filepath.Join(tmp, "fs")
	u, err := images.Unpack(ctx, ref, dst)
	if err != nil {
		tmpdir.Remove(tmp)
		return nil, fmt.Errorf("loading catalog image %s: %w", ref, err)
	}
	configs, ok := u.Labels[image.CatalogConfigsLabel]
	if !ok {
		tmpdir.Remove(tmp)
		return nil, fmt.Errorf("loading catalog image %s: no %s label: not a file-based catalog image", ref, image.CatalogConfigsLabel)
	}
	rel := path.Clean("/" + configs)
	s, err := openDir(ctx, arg, filepath.Join(dst, filepath.FromSlash(rel)), strings.TrimPrefix(rel, "/"))
	if err != nil {
		tmpdir.Remove(tmp)
		return nil, err
	}
	s.cleanup = func() { tmpdir.Remove(tmp) }
	return s, nil
}

// catalogFiles are the files of a side that are catalog files (not .indexignore).
func (s *side) catalogFiles() []string {
	out := make([]string, 0, len(s.hashes))
	for _, f := range fbc.SortedKeys(s.hashes) {
		if !fbc.IsIndexIgnore(f) {
			out = append(out, f)
		}
	}
	return out
}

// filter forgets the files for which keep is false (.indexignore files are kept).
func (s *side) filter(keep func(string) bool) {
	for f := range s.hashes {
		if !fbc.IsIndexIgnore(f) && !keep(f) {
			delete(s.hashes, f)
		}
	}
}

// hashFile is git's hash of a blob holding the file at p (named rel), read as it streams, within
// the limits catalog validate reads with: a regular file of at most fbc.MaxFileSize bytes,
// counted against the total read (--max-total-size). It is computed with crypto/sha1 (go-git's
// own adds SHA-1 collision detection, several times slower, for content it does not trust).
func hashFile(p, rel string) (plumbing.Hash, error) {
	var out plumbing.Hash
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return out, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return out, err
	}
	if err := checkCatalogFile(rel, fi.Mode(), fi.Size()); err != nil {
		return out, err
	}
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", fi.Size())
	if n, err := io.Copy(h, io.LimitReader(f, fi.Size())); err != nil || n != fi.Size() {
		return out, fmt.Errorf("%s: read %d of %d bytes: %v", rel, n, fi.Size(), err)
	}
	copy(out[:], h.Sum(nil))
	return out, nil
}

// checkCatalogFile refuses a catalog file that catalog validate would not read: not a regular
// file, over fbc.MaxFileSize, or past the total read.
func checkCatalogFile(rel string, mode fs.FileMode, size int64) error {
	if !mode.IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s)", rel, mode.Type())
	}
	if size > fbc.MaxFileSize {
		return &manifest.LimitError{File: rel, What: "catalog file size", Limit: fbc.MaxFileSize}
	}
	return manifest.ChargeRead(rel, size)
}
