package image

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Unpacked describes an image Unpack wrote to disk.
type Unpacked struct {
	Ref    string            // the reference as given
	Digest v1.Hash           // digest of the manifest ref names (the index digest for a multi-arch image)
	Labels map[string]string // config labels of the unpacked image
}

// ErrTooLarge is returned (wrapped) when an image exceeds the WithMaxSize limit.
var ErrTooLarge = errors.New("image exceeds the uncompressed size limit")

// Unpack pulls the image ref names and writes its flattened filesystem (whiteouts applied) to dst,
// which must be missing or an empty directory. ref is a registry reference, "oci:DIR[:TAG]" /
// "oci:DIR@sha256:..." for an OCI image layout or "docker-archive:FILE[:REPO:TAG]" for a
// docker-save tarball; from an index, the image of the first WithPlatforms
// entry (default linux/amd64) is used. WithUnpackPaths limits what is written.
//
// Unpack refuses absolute paths, "..", symlinks and hard links that leave dst, entries below a
// symlink, device files, FIFOs and sparse files; it stops after WithMaxSize uncompressed bytes
// read or written (DefaultMaxUnpackSize) and refuses images of more than WithMaxLayers layers
// (DefaultMaxLayers). Files are written 0644 (0755 when executable), directories 0755. On
// error, dst is left empty (or removed when Unpack created it).
//
// Registry options: WithInsecure, WithKeychain, WithRetry, WithTransport, WithLogger.
func Unpack(ctx context.Context, ref, dst string, opts ...Option) (*Unpacked, error) {
	o := makeOptions(opts...)
	a, err := o.fetch(ctx, ref)
	if err != nil {
		return nil, err
	}
	out, err := describe(ref, a)
	if err != nil {
		return nil, err
	}
	img, err := o.pickImage(a)
	if err != nil {
		return nil, fmt.Errorf("unpacking %s: %w", ref, err)
	}
	if err := o.checkLayerCount(img); err != nil {
		return nil, fmt.Errorf("unpacking %s: %w", ref, err)
	}
	if _, isLayout, _ := parseLayoutRef(ref); isLayout {
		if err := verifyConfig(img); err != nil {
			return nil, fmt.Errorf("unpacking %s: %w", ref, err)
		}
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("unpacking %s: reading config: %w", ref, err)
	}
	out.Labels = cf.Config.Labels
	open, err := o.openerFor(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("unpacking %s: %w", ref, err)
	}
	if err := o.extract(ctx, img, open, dst); err != nil {
		return nil, fmt.Errorf("unpacking %s: %w", ref, err)
	}
	return out, nil
}

func describe(ref string, a Artifact) (*Unpacked, error) {
	h, err := a.Digest()
	if err != nil {
		return nil, fmt.Errorf("computing digest of %s: %w", ref, err)
	}
	return &Unpacked{Ref: ref, Digest: h}, nil
}

// extractTo prepares dst and extracts img into it, cleaning up on failure.
func (o *options) extractTo(ctx context.Context, img v1.Image, dst string) error {
	return o.extract(ctx, img, nil, dst)
}

// extract is extractTo with the layers' blobs opened through open (nil: through img).
func (o *options) extract(ctx context.Context, img v1.Image, open blobOpener, dst string) (err error) {
	if err := o.checkLayerCount(img); err != nil {
		return err
	}
	created, err := prepareDir(dst)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dst)
			if !created {
				os.Mkdir(dst, 0o755)
			}
		}
	}()
	root, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer root.Close()
	x := &extractor{root: root, paths: o.unpackPaths, symlinks: map[string]string{}, left: o.maxSize, limit: o.maxSize}
	layers, err := imageLayers(img, open)
	if err != nil {
		return fmt.Errorf("reading layers: %w", err)
	}
	if err := x.flatten(ctx, layers, &limitedReader{left: o.maxSize, limit: o.maxSize}); err != nil {
		return err
	}
	return x.finish()
}

// checkLayerCount refuses an image with more layers than WithMaxLayers, from its manifest.
func (o *options) checkLayerCount(img v1.Image) error {
	m, err := img.Manifest()
	if err != nil {
		return fmt.Errorf("reading manifest: %w", err)
	}
	if n := len(m.Layers); n > o.maxLayers {
		return fmt.Errorf("the image has %d layers, more than the limit of %d (raise it with --max-layers)", n, o.maxLayers)
	}
	return nil
}

// prepareDir makes sure dst is an empty directory; created reports whether it had to be made.
func prepareDir(dst string) (created bool, err error) {
	entries, err := os.ReadDir(dst)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return false, fmt.Errorf("creating %s: %w", dst, err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading %s: %w", dst, err)
	case len(entries) > 0:
		return false, fmt.Errorf("unpacking into %s: the directory is not empty", dst)
	}
	return false, nil
}

// limitedReader fails with ErrTooLarge once more than limit bytes were read through it, over all
// the readers it is given in turn.
type limitedReader struct {
	r           io.Reader
	left, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, tooLarge(l.limit)
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, tooLarge(l.limit)
	}
	return n, err
}

func tooLarge(limit int64) error {
	return fmt.Errorf("%w of %d bytes (raise it with --max-image-size)", ErrTooLarge, limit)
}
