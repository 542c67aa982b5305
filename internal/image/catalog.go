package image

import (
	"context"
	"fmt"
	"github.com/opack/opack/internal/tmpdir"
	"os"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// CatalogConfigsLabel marks a file-based catalog image and names the directory holding the FBC.
const CatalogConfigsLabel = "operators.operatorframework.io.index.configs.v1"

// catalogDir is where the FBC goes in a catalog image.
const catalogDir = "configs"

// Catalog builds the image of the file-based catalog in dir: the FBC under /configs and the label
// operators.operatorframework.io.index.configs.v1=/configs, and (unless WithServeCache(false)) opm's
// serve cache of it under /tmp/cache in a second layer, built with operator-registry's cache code. On
// the default "scratch" base it is a
// data-only image (one per WithPlatforms entry, default linux/amd64, with an index on top when
// there are several); on an opm base (WithBase) it gets opm's ENTRYPOINT and CMD, and a multi-arch
// base gives a multi-arch catalog.
func Catalog(ctx context.Context, dir string, opts ...Option) (Artifact, error) {
	o := makeOptions(opts...)
	if err := o.checkFormat(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("reading catalog %s: not a directory", dir)
	}
	b := &catalogBuilder{o: o, trees: [][]tree{{{src: dir, dst: catalogDir}}}, layers: map[types.MediaType][]v1.Layer{}}
	if !o.noServeCache {
		tmp, cache, err := buildServeCache(ctx, dir, o.serveCacheStore)
		if err != nil {
			return nil, err
		}
		defer tmpdir.Remove(tmp) // every layer is built (into memory) before Catalog returns
		b.trees = append(b.trees, []tree{cache})
	}
	if o.base == "" || o.base == "scratch" {
		return b.scratch()
	}
	if o.format != "" {
		return nil, fmt.Errorf("building catalog on %s: the image keeps its base's media types; drop --format", o.base)
	}
	base, err := o.fetch(ctx, o.base)
	if err != nil {
		return nil, fmt.Errorf("reading catalog base: %w", err)
	}
	if idx, ok := base.(v1.ImageIndex); ok {
		return b.onIndex(idx)
	}
	img := base.(v1.Image)
	if err := o.checkSinglePlatform(img); err != nil {
		return nil, err
	}
	return b.on(img, nil, false)
}

// checkSinglePlatform refuses a single-image base whose platform was not requested.
func (o *options) checkSinglePlatform(img v1.Image) error {
	if len(o.platforms) == 0 {
		return nil
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return fmt.Errorf("reading base config: %w", err)
	}
	if p := cf.Platform(); p == nil || !o.wantPlatform(*p) {
		return fmt.Errorf("base %s is a single-platform image (%s), not one of the requested platforms", o.base, cf.Platform())
	}
	return nil
}

type catalogBuilder struct {
	o      *options
	trees  [][]tree                       // one layer each: the /configs layer, then the serve cache's
	layers map[types.MediaType][]v1.Layer // built once per layer media type
}

var catalogLayerHistory = []string{"opack image catalog", "opack image catalog: opm serve cache"}

func (b *catalogBuilder) buildLayers(mt types.MediaType) ([]v1.Layer, error) {
	if ls, ok := b.layers[mt]; ok {
		return ls, nil
	}
	var ls []v1.Layer
	for _, t := range b.trees {
		l, err := buildLayer(t, mt)
		if err != nil {
			return nil, fmt.Errorf("building catalog image of %s: %w", b.trees[0][0].src, err)
		}
		ls = append(ls, l)
	}
	b.layers[mt] = ls
	return ls, nil
}

// on adds the catalog to base. platform, when set, is written to the config (scratch bases).
func (b *catalogBuilder) on(base v1.Image, platform *v1.Platform, fromScratch bool) (v1.Image, error) {
	mt, err := base.MediaType()
	if err != nil {
		return nil, fmt.Errorf("reading base media type: %w", err)
	}
	ls, err := b.buildLayers(layerType(mt))
	if err != nil {
		return nil, err
	}
	img := base
	for i, l := range ls {
		if img, err = b.o.appendLayer(img, l, catalogLayerHistory[i]); err != nil {
			return nil, err
		}
	}
	return b.o.configure(img, map[string]string{CatalogConfigsLabel: "/" + catalogDir}, func(cf *v1.ConfigFile) {
		if platform != nil {
			cf.OS, cf.Architecture, cf.Variant, cf.OSVersion = platform.OS, platform.Architecture, platform.Variant, platform.OSVersion
		}
		if !fromScratch {
			cf.Config.Entrypoint, cf.Config.Cmd = opmEntrypoint, opmCmdCached
			if b.o.noServeCache {
				cf.Config.Cmd = opmCmdNoCache
			}
		}
	})
}

// scratch builds a data-only catalog for each requested platform.
func (b *catalogBuilder) scratch() (Artifact, error) {
	platforms := b.o.platforms
	if len(platforms) == 0 {
		platforms = []v1.Platform{defaultPlatform}
	}
	var adds []mutate.IndexAddendum
	for _, p := range platforms {
		img, err := b.on(scratch(b.o.format), &p, true)
		if err != nil {
			return nil, err
		}
		adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &p}})
	}
	if len(adds) == 1 {
		return adds[0].Add.(v1.Image), nil
	}
	mt := types.OCIImageIndex
	if b.o.format == FormatDocker {
		mt = types.DockerManifestList
	}
	return b.index(mt, adds)
}

// onIndex adds the catalog to every (requested) platform image of a multi-arch base.
func (b *catalogBuilder) onIndex(base v1.ImageIndex) (Artifact, error) {
	im, err := base.IndexManifest()
	if err != nil {
		return nil, fmt.Errorf("reading base index: %w", err)
	}
	var adds []mutate.IndexAddendum
	for _, d := range imageDescriptors(im) {
		if d.Platform == nil || !b.o.wantPlatform(*d.Platform) {
			continue
		}
		img, err := base.Image(d.Digest)
		if err != nil {
			return nil, fmt.Errorf("reading base image %s: %w", d.Platform, err)
		}
		cat, err := b.on(img, nil, false)
		if err != nil {
			return nil, fmt.Errorf("building catalog for %s: %w", d.Platform, err)
		}
		adds = append(adds, mutate.IndexAddendum{Add: cat, Descriptor: v1.Descriptor{Platform: d.Platform}})
	}
	switch {
	case len(adds) == 0:
		return nil, fmt.Errorf("base %s has no image for the requested platforms (it has: %s)", b.o.base, platformList(imageDescriptors(im)))
	case len(adds) == 1 && len(b.o.platforms) == 1:
		return adds[0].Add.(v1.Image), nil
	}
	mt, err := base.MediaType()
	if err != nil {
		return nil, fmt.Errorf("reading base media type: %w", err)
	}
	return b.index(mt, adds)
}

func (b *catalogBuilder) index(mt types.MediaType, adds []mutate.IndexAddendum) (v1.ImageIndex, error) {
	idx := mutate.AppendManifests(mutate.IndexMediaType(empty.Index, mt), adds...)
	if mt == types.OCIImageIndex {
		idx = mutate.Annotations(idx, b.o.annotations()).(v1.ImageIndex)
	}
	return idx, nil
}

// wantPlatform reports whether p was requested (everything is when no platform was).
func (o *options) wantPlatform(p v1.Platform) bool {
	if len(o.platforms) == 0 {
		return true
	}
	for _, q := range o.platforms {
		if p.Satisfies(q) {
			return true
		}
	}
	return false
}
