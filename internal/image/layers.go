package image

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/partial"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// blobOpener opens a compressed layer blob by digest. go-containerregistry's layout and registry
// images re-read their manifest on every LayerByDigest, which made unpacking quadratic in the
// layer count; Unpack reads the manifest once and opens each blob through a blobOpener.
type blobOpener func(d v1.Descriptor) (io.ReadCloser, error)

// openerFor opens the blobs of the image ref names: straight from the layout's blobs folder
// (verified against the digest while read), or through one puller of the registry (which
// verifies). It returns nil for anything else; layers then come from img.Layers.
func (o *options) openerFor(ctx context.Context, ref string) (blobOpener, error) {
	if _, ok, err := parseArchiveRef(ref); ok {
		return nil, err // a tarball's layers are hashed from its files as they are read
	}
	if lr, ok, err := parseLayoutRef(ref); ok {
		if err != nil {
			return nil, err
		}
		return layoutDir(lr.dir).blob, nil
	}
	r, err := parseRemoteRef(ref, o.insecure)
	if err != nil {
		return nil, err
	}
	puller, err := remote.NewPuller(o.remoteOptions(ctx)...)
	if err != nil {
		return nil, err
	}
	return func(d v1.Descriptor) (io.ReadCloser, error) {
		l, err := puller.Layer(ctx, r.Context().Digest(d.Digest.String()))
		if err != nil {
			return nil, err
		}
		return l.Compressed()
	}, nil
}

// imageLayers returns img's layers, bottom first, from one reading of its manifest.
func imageLayers(img v1.Image, open blobOpener) ([]v1.Layer, error) {
	if open == nil {
		return img.Layers()
	}
	m, err := img.Manifest()
	if err != nil {
		return nil, err
	}
	ls := make([]v1.Layer, len(m.Layers))
	for i, d := range m.Layers {
		if ls[i], err = partial.CompressedToLayer(&blobLayer{desc: d, open: open}); err != nil {
			return nil, err
		}
	}
	return ls, nil
}

// blobLayer is a partial.CompressedLayer described by its manifest descriptor.
type blobLayer struct {
	desc v1.Descriptor
	open blobOpener
}

func (b *blobLayer) Digest() (v1.Hash, error)            { return b.desc.Digest, nil }
func (b *blobLayer) Size() (int64, error)                { return b.desc.Size, nil }
func (b *blobLayer) MediaType() (types.MediaType, error) { return b.desc.MediaType, nil }
func (b *blobLayer) Compressed() (io.ReadCloser, error)  { return b.open(b.desc) }

// verifyingReader fails at the end of the blob when its bytes do not hash to want.
type verifyingReader struct {
	rc   io.ReadCloser
	h    hash.Hash
	want v1.Hash
}

func newVerifyingReader(rc io.ReadCloser, want v1.Hash) io.ReadCloser {
	return &verifyingReader{rc: rc, h: sha256.New(), want: want}
}

func (v *verifyingReader) Read(p []byte) (int, error) {
	n, err := v.rc.Read(p)
	v.h.Write(p[:n])
	if err == io.EOF && (v.want.Algorithm != "sha256" || hex.EncodeToString(v.h.Sum(nil)) != v.want.Hex) {
		return n, fmt.Errorf("layer blob does not match its digest %s; the layout is corrupt", v.want)
	}
	return n, err
}

func (v *verifyingReader) Close() error { return v.rc.Close() }
