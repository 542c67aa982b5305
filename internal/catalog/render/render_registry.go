package render

import (
	"context"

	"github.com/opack/opack/internal/image"
)

// RegistryImages is the ImageSource that pulls from registries and reads oci:DIR layouts with
// internal/image; opts carry the registry options (insecure, keychain, logger, …).
func RegistryImages(opts ...image.Option) ImageSource { return registryImages{opts: opts} }

type registryImages struct{ opts []image.Option }

// Inspect returns the digest ref resolves to and the labels of the image that Unpack would
// unpack (for an index: the linux/amd64 image, else the first).
func (s registryImages) Inspect(ctx context.Context, ref string) (ImageInfo, error) {
	r, err := image.Inspect(ctx, ref, s.opts...)
	if err != nil {
		return ImageInfo{}, err
	}
	info := ImageInfo{Digest: r.Digest, Name: r.Name}
	for i, img := range r.Images {
		if i == 0 || img.Platform == "linux/amd64" {
			info.Labels = img.Labels
		}
		if img.Platform == "linux/amd64" {
			break
		}
	}
	return info, nil
}

// Unpack writes the image's filesystem into dir.
func (s registryImages) Unpack(ctx context.Context, ref, dir string) error {
	_, err := image.Unpack(ctx, ref, dir, s.opts...)
	return err
}
