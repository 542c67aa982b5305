package fbc

import (
	"context"
	"fmt"
	"path"
	"path/filepath"

	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/tmpdir"
)

// ImageUnpacker unpacks an image's filesystem into dst and returns its config labels
// (internal/image.Unpack fits through UnpackImage).
type ImageUnpacker func(ctx context.Context, ref, dst string) (labels map[string]string, err error)

// unpackImage is the default ImageUnpacker: internal/image.Unpack (registry or oci:DIR, no daemon).
func unpackImage(opts ...image.Option) ImageUnpacker {
	return func(ctx context.Context, ref, dst string) (map[string]string, error) {
		u, err := image.Unpack(ctx, ref, dst, opts...)
		if err != nil {
			return nil, err
		}
		return u.Labels, nil
	}
}

// loadImage unpacks a catalog image (one with the operators.operatorframework.io.index.configs.v1
// label) into a temporary folder and loads the FBC below the folder the label names.
func loadImage(ctx context.Context, ref string, unpack ImageUnpacker, opts ...LoadOption) (*DeclarativeConfig, error) {
	if unpack == nil {
		unpack = unpackImage()
	}
	tmp, err := tmpdir.Make("catalog")
	if err != nil {
		return nil, err
	}
	defer tmpdir.Remove(tmp)
	dst := filepath.Join(tmp, "fs")
	labels, err := unpack(ctx, ref, dst)
	if err != nil {
		return nil, fmt.Errorf("loading catalog image %s: %w", ref, err)
	}
	configs, ok := labels[image.CatalogConfigsLabel]
	if !ok {
		return nil, fmt.Errorf("loading catalog image %s: no %s label: not a file-based catalog image", ref, image.CatalogConfigsLabel)
	}
	rel := path.Clean("/" + configs)
	return LoadDir(ctx, filepath.Join(dst, filepath.FromSlash(rel)), opts...)
}

// LoadRef loads a catalog folder or a catalog image; image.ParseSource tells which ref is. A
// bundle folder or a folder of bundles given instead of a catalog, and a catalog with no
// objects, are errors saying so.
func LoadRef(ctx context.Context, ref string, unpack ImageUnpacker, opts ...LoadOption) (*DeclarativeConfig, error) {
	src, err := image.ParseSource(ref)
	if err != nil {
		return nil, err
	}
	var cfg *DeclarativeConfig
	if src.IsImage() {
		cfg, err = loadImage(ctx, src.Ref, unpack, opts...)
	} else {
		cfg, err = LoadDir(ctx, src.Path, opts...)
		if err != nil {
			if werr := NotCatalogDir(src.Path); werr != nil {
				return nil, werr
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if cfg.empty() {
		return nil, fmt.Errorf("%s holds no catalog objects (olm.package, olm.channel, olm.bundle or olm.deprecations): nothing to check", ref)
	}
	return cfg, nil
}
