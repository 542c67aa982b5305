package render

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/tmpdir"
)

// Image labels that tell what an image holds.
const (
	labelConfigsLocation = "operators.operatorframework.io.index.configs.v1"
	labelDBLocation      = "operators.operatorframework.io.index.database.v1"
	labelBundlePackage   = "operators.operatorframework.io.bundle.package.v1"
)

// imageInfo is what render needs to know about an image before unpacking it.
type imageInfo struct {
	// Digest identifies the image content (the manifest digest, "sha256:…"); it keys the
	// render cache, so it must change whenever the content does.
	Digest string
	// Labels are the labels of the config of the image Unpack unpacks (for an index: the
	// linux/amd64 image, else the first).
	Labels map[string]string
	// Name is the full image reference an OCI layout records for the manifest; empty for
	// registry references and layouts that record only a tag.
	Name string
}

// inspect resolves ref without downloading layers.
func (r *Renderer) inspect(ctx context.Context, ref string) (imageInfo, error) {
	rep, err := r.images.Inspect(ctx, ref)
	if err != nil {
		return imageInfo{}, err
	}
	info := imageInfo{Digest: rep.Digest, Name: rep.Name}
	for i, img := range rep.Images {
		if i == 0 || img.Platform == "linux/amd64" {
			info.Labels = img.Labels
		}
		if img.Platform == "linux/amd64" {
			break
		}
	}
	return info, nil
}

// errNoImageSource is returned when a reference is not a local path and no puller is set.
var errNoImageSource = errors.New("not a file or folder, and rendering images is not enabled")

// renderImage renders a bundle or catalog image.
func (r *Renderer) renderImage(ctx context.Context, ref string) (*fbc.DeclarativeConfig, error) {
	if r.images == nil {
		return nil, errNoImageSource
	}
	info, err := r.inspect(ctx, ref)
	if err != nil {
		return nil, err
	}
	kind, loc, err := imageKind(ref, info.Labels)
	if err != nil {
		return nil, err
	}
	if !r.allowed.Allowed(kind) {
		return nil, fmt.Errorf("cannot render %s: %w", kind, errNotAllowed)
	}
	if kind == RefBundleImage {
		return r.renderBundleImage(ctx, ref, info)
	}
	dir, cleanup, err := r.unpack(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	return loadFBCDir(ctx, filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(loc, "/"))))
}

// imageKind classifies an image by its labels, as opm does.
func imageKind(ref string, labels map[string]string) (RefType, string, error) {
	if _, ok := labels[labelDBLocation]; ok {
		return RefSqliteImage, "", fmt.Errorf("render %q: sqlite catalog images are not supported; migrate the catalog to a file-based catalog with `opm migrate`", ref)
	}
	if loc, ok := labels[labelConfigsLocation]; ok {
		return RefDCImage, loc, nil
	}
	if _, ok := labels[labelBundlePackage]; ok {
		return RefBundleImage, "", nil
	}
	if len(labels) == 0 {
		return 0, "", fmt.Errorf("render %q: image type could not be determined: image has no labels", ref)
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = fmt.Sprintf("  %s=%s", k, labels[k])
	}
	return 0, "", fmt.Errorf("render %q: image type could not be determined, found labels\n%s", ref, strings.Join(vals, "\n"))
}

// renderBundleImage renders a bundle image, from the cache when its digest was rendered before.
func (r *Renderer) renderBundleImage(ctx context.Context, ref string, info imageInfo) (*fbc.DeclarativeConfig, error) {
	key := ""
	if r.cache != nil && info.Digest != "" {
		key = cacheKey("image", ref, info.Digest, info.Name, r.tmplText)
	}
	b, err := r.cachedBundle(key, func() (*fbc.Bundle, string, error) {
		dir, cleanup, err := r.unpack(ctx, ref)
		if err != nil {
			return nil, "", err
		}
		defer cleanup()
		rb, err := parseRegistryBundle(dir, r.warnings())
		if err != nil {
			return nil, "", err
		}
		if err := r.bundleImageName(rb, ref, info); err != nil {
			return nil, "", err
		}
		b, err := rb.toFBC()
		return b, key, err // an image digest names its content
	})
	if err != nil {
		return nil, err
	}
	return &fbc.DeclarativeConfig{Bundles: []fbc.Bundle{*b}}, nil
}

func (r *Renderer) unpack(ctx context.Context, ref string) (string, func(), error) {
	dir, err := tmpdir.Make("render")
	if err != nil {
		return "", nil, fmt.Errorf("creating a folder to unpack %s: %w", ref, err)
	}
	cleanup := func() { tmpdir.Remove(dir) }
	if _, err := r.images.Unpack(ctx, ref, dir); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// bundleImageName sets the image of a bundle rendered from ref. A registry reference is the
// image. An "oci:DIR" or "docker-archive:FILE" path means nothing to a cluster: the image is the
// reference the layout or tarball records (opack image bundle --oci-layout --tag REGISTRY/REPO:TAG records it), else the
// --image-ref-template one; with neither, ref is kept with a warning.
func (r *Renderer) bundleImageName(rb *registryBundle, ref string, info imageInfo) error {
	rb.image = ref
	if !image.IsLocalRef(ref) {
		return nil
	}
	switch {
	case r.tmpl != nil:
		if err := r.templateImageRef(rb); err != nil {
			return fmt.Errorf("failed templating image reference from bundle for %q: %v", ref, err)
		}
	case info.Name != "":
		rb.image = info.Name
	default:
		fmt.Fprintf(r.warnings(), "warning: %s: the OCI layout records no full image reference for this image (only a tag), so the bundle's image is %q, which a cluster cannot pull; build the layout with `opack image bundle --oci-layout DIR --tag REGISTRY/REPO:TAG`, or set the image with --image-ref-template\n", ref, ref)
	}
	return nil
}
