package fbc

import (
	"context"
	"fmt"
	"path"
	"path/filepath"

	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/tmpdir"
)

// loadImage unpacks a catalog image (one with the operators.operatorframework.io.index.configs.v1
// label) into a temporary folder and loads the FBC below the folder the label names; a nil
// puller is image.NewPuller().
func loadImage(ctx context.Context, ref string, images image.Puller, opts ...LoadOption) (*DeclarativeConfig, error) {
	if images == nil {
		images = image.NewPuller()
	}
	tmp, err := tmpdir.Make("catalog")
	if err != nil {
		return nil, err
	}
	defer tmpdir.Remove(tmp)
	dst := filepath.Join(tmp, "fs")
	u, err := images.Unpack(ctx, ref, dst)
	if err != nil {
		return nil, fmt.Errorf("loading catalog image %s: %w", ref, err)
	}
	configs, ok := u.Labels[image.CatalogConfigsLabel]
	if !ok {
		return nil, fmt.Errorf("loading catalog image %s: no %s label: not a file-based catalog image", ref, image.CatalogConfigsLabel)
	}
	rel := path.Clean("/" + configs)
	return LoadDir(ctx, filepath.Join(dst, filepath.FromSlash(rel)), opts...)
}

// LoadRef loads a catalog folder or a catalog image; image.ParseSource tells which ref is. A
// bundle folder or a folder of bundles given instead of a catalog, and a catalog with no
// objects, are errors saying so.
func LoadRef(ctx context.Context, ref string, images image.Puller, opts ...LoadOption) (*DeclarativeConfig, error) {
	src, err := image.ParseSource(ref)
	if err != nil {
		return nil, err
	}
	var cfg *DeclarativeConfig
	if src.IsImage() {
		cfg, err = loadImage(ctx, src.Ref, images, opts...)
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
