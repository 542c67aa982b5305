package image

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/opack/opack/internal/manifest"
)

// An OCI image layout on disk may be a repository's (a committed _output/images, an oci: argument
// of a pull request): it is read here, never by go-containerregistry's layout package, which
// opens index.json and blobs by path and reads them whole. Every file is opened through an
// os.Root on the layout (no symlink leads out of it), only when it is a regular file (a FIFO,
// device or socket is refused before it is read), and read within a bound: index.json and
// manifests within maxLayoutManifest, a config within the file-size limit, a layer within the
// size its manifest gives, each checked against its digest.

// maxLayoutManifest bounds index.json and every manifest of a layout (registries refuse
// manifests over 4 MiB).
const maxLayoutManifest = 4 << 20

// manifestSize names maxLayoutManifest in a limit error (no flag raises it).
const manifestSize = "manifest size"

var sha256Hex = regexp.MustCompile(`^[a-f0-9]{64}$`)

// layoutDir is an OCI image layout folder read as described above.
type layoutDir string

// open opens rel (slash path) below the layout: a regular file, reached without leaving it.
func (l layoutDir) open(rel string) (*os.File, fs.FileInfo, error) {
	r, err := os.OpenRoot(string(l))
	if err != nil {
		return nil, nil, fmt.Errorf("reading OCI layout %s: %w", l, err)
	}
	defer r.Close()
	f, err := r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if target, lerr := os.Readlink(filepath.Join(string(l), filepath.FromSlash(rel))); lerr == nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("reading OCI layout %s: %s is a symlink to %s, which leads out of the layout; an OCI layout holds only folders and files: remove the layout and build it again",
				l, rel, target)
		}
		return nil, nil, fmt.Errorf("reading OCI layout %s: %w", l, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("reading OCI layout %s: %s is not a regular file (%s); an OCI layout holds only folders and files: remove the layout and build it again",
			l, rel, fi.Mode().Type())
	}
	return f, fi, nil
}

// read reads rel below the layout, refusing a file over limit from its size, unread; what names
// the limit in the error ("manifest size", fixed; "file size", --max-file-size).
func (l layoutDir) read(rel string, limit int64, what string) ([]byte, error) {
	f, fi, err := l.open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, &manifest.LimitError{File: path.Join(string(l), rel), What: what, Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &manifest.LimitError{File: path.Join(string(l), rel), What: what, Limit: limit}
	}
	return data, nil
}

// blobPath is the file of blob h below the layout; only sha256 digests are read.
func blobPath(h v1.Hash) (string, error) {
	if h.Algorithm != "sha256" || !sha256Hex.MatchString(h.Hex) {
		return "", fmt.Errorf("unsupported digest %q", h)
	}
	return "blobs/sha256/" + h.Hex, nil
}

// blobBytes reads blob h (within limit) and checks it against its digest.
func (l layoutDir) blobBytes(h v1.Hash, limit int64, what string) ([]byte, error) {
	p, err := blobPath(h)
	if err != nil {
		return nil, fmt.Errorf("reading OCI layout %s: %w", l, err)
	}
	data, err := l.read(p, limit, what)
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != h.Hex {
		return nil, fmt.Errorf("reading OCI layout %s: blob %s does not match its digest; the layout is corrupt", l, h)
	}
	return data, nil
}

// blob opens blob d for reading: its size must be d.Size, and its bytes are checked against the
// digest as they are read (the error comes at the end of the blob).
func (l layoutDir) blob(d v1.Descriptor) (io.ReadCloser, error) {
	p, err := blobPath(d.Digest)
	if err != nil {
		return nil, fmt.Errorf("reading OCI layout %s: %w", l, err)
	}
	f, fi, err := l.open(p)
	if err != nil {
		return nil, err
	}
	if d.Size > 0 && fi.Size() != d.Size {
		f.Close()
		return nil, fmt.Errorf("reading OCI layout %s: blob %s holds %d bytes, its descriptor says %d, so it does not match its digest; the layout is corrupt", l, d.Digest, fi.Size(), d.Size)
	}
	return newVerifyingReader(f, d.Digest), nil
}

// index reads the layout's index.json.
func (l layoutDir) index() (*layoutIndex, error) {
	raw, err := l.read("index.json", maxLayoutManifest, manifestSize)
	if err != nil {
		return nil, err
	}
	im, err := v1.ParseIndexManifest(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading OCI layout %s: index.json: %w", l, err)
	}
	mt := im.MediaType
	if mt == "" {
		mt = types.OCIImageIndex
	}
	return &layoutIndex{dir: l, raw: raw, im: im, mediaType: mt}, nil
}

// readLayoutIndex reads the index.json of the OCI layout in dir.
func readLayoutIndex(dir string) (*v1.IndexManifest, error) {
	ii, err := layoutDir(dir).index()
	if err != nil {
		return nil, err
	}
	return ii.im, nil
}

// LayoutHolds reports whether the index of the OCI layout dir lists a manifest with digest
// (false, nil when dir holds no layout; an error when it holds a broken or hostile one).
func LayoutHolds(dir, digest string) (bool, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	im, err := readLayoutIndex(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, d := range im.Manifests {
		if d.Digest.String() == digest {
			return true, nil
		}
	}
	return false, nil
}

// layoutIndex is a v1.ImageIndex of a layout: its index.json, or a nested index blob.
type layoutIndex struct {
	dir       layoutDir
	raw       []byte
	im        *v1.IndexManifest
	mediaType types.MediaType
}

var _ v1.ImageIndex = (*layoutIndex)(nil)

func (i *layoutIndex) MediaType() (types.MediaType, error)       { return i.mediaType, nil }
func (i *layoutIndex) Digest() (v1.Hash, error)                  { return partial.Digest(i) }
func (i *layoutIndex) Size() (int64, error)                      { return int64(len(i.raw)), nil }
func (i *layoutIndex) IndexManifest() (*v1.IndexManifest, error) { return i.im, nil }
func (i *layoutIndex) RawManifest() ([]byte, error)              { return i.raw, nil }

func (i *layoutIndex) descriptor(h v1.Hash) (v1.Descriptor, error) {
	for _, d := range i.im.Manifests {
		if d.Digest == h {
			return d, nil
		}
	}
	return v1.Descriptor{}, fmt.Errorf("reading OCI layout %s: no manifest %s in the index", i.dir, h)
}

// Image returns the image h of the index, its manifest read and checked against h.
func (i *layoutIndex) Image(h v1.Hash) (v1.Image, error) {
	d, err := i.descriptor(h)
	if err != nil {
		return nil, err
	}
	raw, err := i.dir.blobBytes(h, maxLayoutManifest, manifestSize)
	if err != nil {
		return nil, err
	}
	return partial.CompressedToImage(&layoutImage{dir: i.dir, desc: d, raw: raw})
}

// ImageIndex returns the nested index h, its manifest read and checked against h.
func (i *layoutIndex) ImageIndex(h v1.Hash) (v1.ImageIndex, error) {
	d, err := i.descriptor(h)
	if err != nil {
		return nil, err
	}
	raw, err := i.dir.blobBytes(h, maxLayoutManifest, manifestSize)
	if err != nil {
		return nil, err
	}
	im, err := v1.ParseIndexManifest(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("reading OCI layout %s: index %s: %w", i.dir, h, err)
	}
	return &layoutIndex{dir: i.dir, raw: raw, im: im, mediaType: d.MediaType}, nil
}

// layoutImage is a partial.CompressedImageCore of a layout image.
type layoutImage struct {
	dir  layoutDir
	desc v1.Descriptor
	raw  []byte

	once   sync.Once
	config []byte
	err    error
}

func (li *layoutImage) MediaType() (types.MediaType, error) { return li.desc.MediaType, nil }
func (li *layoutImage) RawManifest() ([]byte, error)        { return li.raw, nil }

func (li *layoutImage) RawConfigFile() ([]byte, error) {
	li.once.Do(func() {
		m, err := partial.Manifest(li)
		if err != nil {
			li.err = err
			return
		}
		li.config, li.err = li.dir.blobBytes(m.Config.Digest, manifest.DefaultLimits().MaxFileSize, "file size")
	})
	return li.config, li.err
}

func (li *layoutImage) LayerByDigest(h v1.Hash) (partial.CompressedLayer, error) {
	m, err := partial.Manifest(li)
	if err != nil {
		return nil, err
	}
	if h == m.Config.Digest {
		return &blobLayer{desc: m.Config, open: li.dir.blob}, nil
	}
	for _, d := range m.Layers {
		if d.Digest == h {
			return &blobLayer{desc: d, open: li.dir.blob}, nil
		}
	}
	return nil, fmt.Errorf("reading OCI layout %s: no layer %s in manifest %s", li.dir, h, li.desc.Digest)
}
