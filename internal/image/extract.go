package image

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// maxSymlinkHops bounds symlink chains when checking that a link stays in the tree.
const maxSymlinkHops = 40

// extractor writes a flattened image filesystem below root, refusing anything that could escape it.
type extractor struct {
	root     *os.Root
	paths    []string          // WithUnpackPaths; empty means everything
	symlinks map[string]string // symlinks written: cleaned name → target
	links    []hardLink        // hard links, made once every regular file exists
	left     int64             // bytes that may still be written (regular files' sizes)
	limit    int64             // WithMaxSize, for the error
}

type hardLink struct{ name, target string }

// entryName cleans a tar entry name, refusing absolute paths and ".." components.
func entryName(raw string) (string, error) {
	if strings.HasPrefix(raw, "/") {
		return "", fmt.Errorf("refusing entry %q: absolute path", raw)
	}
	if slices.Contains(strings.Split(raw, "/"), "..") {
		return "", fmt.Errorf("refusing entry %q: path contains \"..\"", raw)
	}
	name := path.Clean(raw)
	if name != "." && !filepath.IsLocal(filepath.FromSlash(name)) {
		return "", fmt.Errorf("refusing entry %q: not a local path", raw)
	}
	return name, nil
}

func (x *extractor) selected(name string) bool {
	if len(x.paths) == 0 {
		return true
	}
	for _, p := range x.paths {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		if name == p || strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// entry writes one tar entry.
func (x *extractor) entry(hdr *tar.Header, name string, r io.Reader) error {
	if isSparse(hdr) {
		return fmt.Errorf("refusing entry %q: sparse file (%d bytes once expanded); images opack reads hold plain files only", hdr.Name, hdr.Size)
	}
	if link := x.underSymlink(name); link != "" {
		return fmt.Errorf("refusing entry %q: it lies below the symlink %q", hdr.Name, link)
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		return x.mkdir(name)
	case tar.TypeReg:
		return x.file(name, hdr, r)
	case tar.TypeSymlink:
		return x.symlink(name, hdr.Linkname)
	case tar.TypeLink:
		target, err := entryName(hdr.Linkname)
		if err != nil {
			return fmt.Errorf("refusing hard link %q: %w", hdr.Name, err)
		}
		x.links = append(x.links, hardLink{name: name, target: target})
		return nil
	case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
		return fmt.Errorf("refusing entry %q: device files and FIFOs are not allowed", hdr.Name)
	}
	return fmt.Errorf("refusing entry %q: unsupported tar entry type %q", hdr.Name, hdr.Typeflag)
}

// isSparse reports whether hdr is a GNU sparse file (old GNU type 'S' or the PAX GNU.sparse.*
// records), whose holes archive/tar expands to zeros: its real size can be far beyond the bytes
// stored in the layer.
func isSparse(hdr *tar.Header) bool {
	if hdr.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range hdr.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// underSymlink returns the symlink that is name's ancestor, or "".
func (x *extractor) underSymlink(name string) string {
	for dir := path.Dir(name); dir != "."; dir = path.Dir(dir) {
		if _, ok := x.symlinks[dir]; ok {
			return dir
		}
	}
	return ""
}

func (x *extractor) mkdir(name string) error {
	if err := x.root.MkdirAll(name, 0o755); err != nil {
		return fmt.Errorf("creating directory %s: %w", name, err)
	}
	return nil
}

func (x *extractor) file(name string, hdr *tar.Header, r io.Reader) error {
	if err := x.mkdir(path.Dir(name)); err != nil {
		return err
	}
	if hdr.Size > x.left {
		return fmt.Errorf("refusing entry %q of %d bytes: %w", hdr.Name, hdr.Size, tooLarge(x.limit))
	}
	x.left -= hdr.Size
	perm := os.FileMode(0o644)
	if hdr.Mode&0o111 != 0 {
		perm = 0o755
	}
	f, err := x.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	if _, err := io.CopyN(f, r, hdr.Size); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

func (x *extractor) symlink(name, target string) error {
	if target == "" || path.IsAbs(target) {
		return fmt.Errorf("refusing symlink %q -> %q: the target must be a relative path inside the image", name, target)
	}
	if resolved := path.Join(path.Dir(name), target); !filepath.IsLocal(filepath.FromSlash(resolved)) {
		return fmt.Errorf("refusing symlink %q -> %q: it leaves the tree", name, target)
	}
	if err := x.mkdir(path.Dir(name)); err != nil {
		return err
	}
	if err := x.root.Symlink(target, name); err != nil {
		return fmt.Errorf("creating symlink %s: %w", name, err)
	}
	x.symlinks[name] = target
	return nil
}

// finish makes the hard links and checks that every symlink, followed through the others, stays
// in the tree.
func (x *extractor) finish() error {
	for _, l := range x.links {
		if err := x.hardLink(l); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(x.symlinks))
	for n := range x.symlinks {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if x.escapes(n) {
			return fmt.Errorf("refusing symlink %q -> %q: followed through other symlinks it leaves the tree", n, x.symlinks[n])
		}
	}
	return nil
}

func (x *extractor) hardLink(l hardLink) error {
	if _, isLink := x.symlinks[l.target]; isLink || x.underSymlink(l.target) != "" {
		return fmt.Errorf("refusing hard link %q -> %q: the target is or lies below a symlink", l.name, l.target)
	}
	fi, err := x.root.Lstat(l.target)
	if err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("refusing hard link %q -> %q: the target is not a regular file in the image", l.name, l.target)
	}
	if err := x.mkdir(path.Dir(l.name)); err != nil {
		return err
	}
	if err := x.root.Link(l.target, l.name); err != nil {
		return fmt.Errorf("creating hard link %s: %w", l.name, err)
	}
	return nil
}

// escapes resolves the symlink name component by component, following the symlinks of the tree,
// and reports whether ".." climbs above the root, an absolute target is met, or the chain loops.
func (x *extractor) escapes(name string) bool {
	var cur []string
	if dir := path.Dir(name); dir != "." {
		cur = strings.Split(dir, "/")
	}
	todo := strings.Split(x.symlinks[name], "/")
	for hops := 0; len(todo) > 0; {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(cur) == 0 {
				return true
			}
			cur = cur[:len(cur)-1]
			continue
		}
		cur = append(cur, c)
		t, ok := x.symlinks[strings.Join(cur, "/")]
		if !ok {
			continue
		}
		if hops++; hops > maxSymlinkHops || path.IsAbs(t) {
			return true
		}
		cur = cur[:len(cur)-1]
		todo = append(strings.Split(t, "/"), todo...)
	}
	return false
}
