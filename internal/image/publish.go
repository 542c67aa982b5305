package image

import (
	"context"
	"errors"
	"fmt"
	"github.com/opack/opack/internal/manifest"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/match"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"go.podman.io/image/v5/docker/reference"
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

// NewLayoutPublisher writes into the OCI image layout dir (created when missing), replacing the
// manifest tagged tag (org.opencontainers.image.ref.name), or the one with the same digest when
// tag is empty. tag may be a full reference (REGISTRY/REPO:TAG): its tag names the manifest and
// the whole reference is recorded as io.containerd.image.name, so that rendering the layout
// knows the image's real name.
func NewLayoutPublisher(dir, tag string) (Publisher, error) {
	full := ""
	if strings.ContainsAny(tag, "/:") {
		n, err := reference.ParseNormalizedNamed(tag)
		t, ok := n.(reference.NamedTagged)
		if err != nil || !ok {
			return nil, fmt.Errorf("bad OCI layout reference %q: want TAG or REGISTRY/REPO:TAG", tag)
		}
		full, tag = t.String(), t.Tag()
	}
	if tag != "" {
		if _, err := name.NewTag("localhost/x:"+tag, name.StrictValidation); err != nil {
			return nil, fmt.Errorf("bad OCI layout tag %q: %w", tag, err)
		}
	}
	return &layoutPublisher{dir: dir, tag: tag, full: full}, nil
}

type layoutPublisher struct {
	dir, tag, full string
}

func (p *layoutPublisher) Publish(_ context.Context, a Artifact) (string, error) {
	h, err := a.Digest()
	if err != nil {
		return "", fmt.Errorf("computing digest: %w", err)
	}
	// go-containerregistry rewrites index.json in place: stage the new layout beside the old one
	// (blobs hard-linked, they are immutable) and swap it in, so an interrupted write leaves the
	// previous layout intact.
	err = manifest.ReplaceDir(p.dir, func(tmp string) error {
		if err := stageLayout(p.dir, tmp); err != nil {
			return err
		}
		return p.write(tmp, a, h)
	})
	if err != nil {
		return "", err
	}
	return layoutRef{dir: p.dir, digest: &h}.String(), nil
}

// write puts a into the layout in dir, tagged as p says.
func (p *layoutPublisher) write(dir string, a Artifact, h v1.Hash) error {
	path, err := openLayout(dir)
	if err != nil {
		return err
	}
	matcher, lopts := match.Digests(h), []layout.Option(nil)
	if p.tag != "" {
		matcher = match.Annotation(refNameAnnotation, p.tag)
		ann := map[string]string{refNameAnnotation: p.tag}
		if p.full != "" {
			ann[containerdNameAnnotation] = p.full
		}
		lopts = append(lopts, layout.WithAnnotations(ann))
	}
	switch t := a.(type) {
	case v1.ImageIndex:
		err = path.ReplaceIndex(t, matcher, lopts...)
	case v1.Image:
		err = path.ReplaceImage(t, matcher, lopts...)
	default:
		err = fmt.Errorf("unsupported artifact %T", a)
	}
	if err != nil {
		return fmt.Errorf("writing OCI layout %s: %w", p.dir, err)
	}
	return nil
}

// openLayout opens the OCI layout in dir, creating it when dir is missing or empty.
func openLayout(dir string) (layout.Path, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
		p, err := layout.Write(dir, empty.Index)
		if err != nil {
			return "", fmt.Errorf("creating OCI layout %s: %w", dir, err)
		}
		return p, nil
	}
	p, err := layout.FromPath(dir)
	if err != nil {
		return "", fmt.Errorf("opening OCI layout %s: %w (choose a missing or empty directory)", dir, err)
	}
	return p, nil
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
