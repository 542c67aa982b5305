package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Publisher writes a built image or index somewhere and returns the reference that names it by
// digest ("REPO@sha256:..." or "oci:DIR@sha256:...").
type Publisher interface {
	Publish(ctx context.Context, a Artifact) (string, error)
}

// NewRegistryPublisher pushes to the registry named by ref, with credentials from the keychain
// (WithKeychain), retries (WithRetry) and the plain-HTTP rules of WithInsecure.
func NewRegistryPublisher(ref string, opts ...Option) (Publisher, error) {
	o := makeOptions(opts...)
	r, err := parseRemoteRef(ref, o.insecure)
	if err != nil {
		return nil, err
	}
	return &registryPublisher{ref: r, o: o}, nil
}

type registryPublisher struct {
	ref name.Reference
	o   *options
}

func (p *registryPublisher) Publish(ctx context.Context, a Artifact) (string, error) {
	h, err := a.Digest()
	if err != nil {
		return "", fmt.Errorf("computing digest: %w", err)
	}
	ropts := p.o.remoteOptions(ctx)
	switch t := a.(type) {
	case v1.ImageIndex:
		err = remote.WriteIndex(p.ref, t, ropts...)
	case v1.Image:
		err = remote.Write(p.ref, t, ropts...)
	default:
		err = fmt.Errorf("unsupported artifact %T", a)
	}
	if err != nil {
		return "", fmt.Errorf("pushing %s: %w", p.ref, deadline(ctx, err))
	}
	digestRef := p.ref.Context().Digest(h.String())
	if p.o.verify {
		if err := verifyPushed(ctx, digestRef, p.o); err != nil {
			return "", fmt.Errorf("verifying the push of %s: %w", p.ref, deadline(ctx, err))
		}
	}
	fmt.Fprintf(p.o.log, "pushed %s (%s)\n", p.ref, h)
	return digestRef.Name(), nil
}

// NewTarballPublisher writes a docker-save tarball (for `docker load`) of one image tagged ref.
// `docker load` rebuilds the manifest, so only the config digest (the image ID) survives; use an
// OCI layout to keep the digest.
func NewTarballPublisher(file, ref string) (Publisher, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return nil, fmt.Errorf("parsing reference %q: %w", ref, err)
	}
	return &tarballPublisher{file: file, ref: r}, nil
}

type tarballPublisher struct {
	file string
	ref  name.Reference
}

func (p *tarballPublisher) Publish(_ context.Context, a Artifact) (string, error) {
	img, ok := a.(v1.Image)
	if !ok {
		return "", fmt.Errorf("writing tarball %s: a tarball holds one image, not a multi-arch index; pick one platform or write an OCI layout", p.file)
	}
	h, err := img.Digest()
	if err != nil {
		return "", fmt.Errorf("computing digest: %w", err)
	}
	if err := writeAtomically(p.file, func(f *os.File) error { return tarball.Write(p.ref, img, f) }); err != nil {
		return "", fmt.Errorf("writing tarball %s: %w", p.file, err)
	}
	return p.ref.Context().Digest(h.String()).Name(), nil
}

// writeAtomically fills a temporary file next to path and renames it into place.
func writeAtomically(path string, fill func(*os.File) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// PublishBundle builds the bundle image of dir (see Bundle) and publishes it with p, returning the
// reference p names it by.
func PublishBundle(ctx context.Context, dir string, p Publisher, opts ...Option) (string, error) {
	img, err := Bundle(ctx, dir, opts...)
	if err != nil {
		return "", err
	}
	return p.Publish(ctx, img)
}

// PublishCatalog builds the catalog image of dir (see Catalog) and publishes it with p, returning
// the reference p names it by.
func PublishCatalog(ctx context.Context, dir string, p Publisher, opts ...Option) (string, error) {
	a, err := Catalog(ctx, dir, opts...)
	if err != nil {
		return "", err
	}
	return p.Publish(ctx, a)
}
