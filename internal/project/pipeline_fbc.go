package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/project/config"

	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// fbcFiles reads the file-based catalog files of catalog c (slash paths relative to its dir):
// every .yaml, .yml or .json file holding olm.* blobs. Other files (a Dockerfile, a README) are
// neither read nor touched.
func (r *run) fbcFiles(c config.Catalog) (map[string][]byte, error) {
	root := r.path(c.Dir)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() || !template.IsFBCName(p) {
			return nil
		}
		data, err := manifest.ReadBytes(p) // a regular file (the walk follows no symlink) in a folder Load confined
		if err != nil {
			return err
		}
		if !template.IsFBCFile(p, data) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no file-based catalog files (olm.package, olm.channel, olm.bundle) in %s", c.Dir)
	}
	return files, nil
}

// buildFBCCatalog adds the bundle to catalog i, an existing file-based catalog kept as it is:
// the files it changes or creates are the outputs; the rest of the folder is never touched.
func (r *run) buildFBCCatalog(ctx context.Context, i int) error {
	c := r.p.Catalogs[i]
	files, err := r.fbcFiles(c)
	if err != nil {
		return stepErr(StepCatalogTemplate, c.Dir, err, "set catalogs dir to the folder holding the catalog, or remove mode: fbc")
	}
	changed, err := r.addToFBC(ctx, c, files)
	if err != nil {
		return err
	}
	dir := r.staged("catalogs", fmt.Sprint(i))
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	for n := range changed {
		if _, ok := files[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		data, ok := changed[n]
		if !ok {
			data = files[n]
		}
		if err := writeStaged(filepath.Join(dir, filepath.FromSlash(n)), data); err != nil {
			return stepErr(StepCatalogTemplate, c.Dir, err, "")
		}
		if ok {
			r.addOutput(path.Join(c.Dir, n), filepath.Join(dir, filepath.FromSlash(n)), false, true)
		}
	}
	r.o.logf("%s %s", StepCatalogValidate, c.Name)
	if err := r.validateCatalog(ctx, c, dir); err != nil {
		return err
	}
	r.o.logf("%s %s", StepCatalogImage, c.Name)
	return r.buildCatalogImage(ctx, c, dir)
}

// addToFBC returns the catalog files the new bundle changes: none when the catalog already has
// it by this digest; the bundle's blob replaced when it is a rebuild (--allow-rebuild).
func (r *run) addToFBC(ctx context.Context, c config.Catalog, files map[string][]byte) (map[string][]byte, error) {
	ref := r.res.Bundle.Digest
	rd, err := render.NewRenderer(render.WithPuller(r.images))
	if err != nil {
		return nil, stepErr(StepCatalogTemplate, c.Dir, err, "")
	}
	cfg, err := rd.RenderBundle(ctx, ref)
	if err != nil {
		return nil, stepErr(StepRender, c.Dir, fmt.Errorf("rendering %s: %w", ref, err), "")
	}
	if len(cfg.Bundles) != 1 {
		return nil, stepErr(StepRender, c.Dir, fmt.Errorf("rendering %s gave %d bundles", ref, len(cfg.Bundles)), "")
	}
	b := cfg.Bundles[0]
	opts := template.FBCAddOptions{Channels: r.p.Channels}
	if c.BundleFile != "" {
		if opts.BundleFile, err = config.FBCBundleFile(c.BundleFile, r.version, r.p.Package); err != nil {
			return nil, stepErr(StepCatalogTemplate, r.p.File, err, "fix catalogs bundleFile")
		}
	}
	changed, err := template.AddToFBC(files, b, opts)
	if errors.Is(err, template.ErrBundleInCatalog) {
		return r.rebuiltFBC(ctx, c, files, b)
	}
	if err != nil {
		return nil, stepErr(StepCatalogTemplate, c.Dir, fmt.Errorf("adding %s: %w", b.Name, err),
			"the channels of "+r.p.File+" must fit the catalog; edit "+c.Dir+" by hand where a channel has several heads")
	}
	return changed, nil
}

// rebuiltFBC handles a bundle already in the catalog: unchanged when it has this image, else a
// rebuild, refused unless --allow-rebuild, which replaces the bundle's blob in place.
func (r *run) rebuiltFBC(ctx context.Context, c config.Catalog, files map[string][]byte, b fbc.Bundle) (map[string][]byte, error) {
	cur, err := loadFBCFiles(files)
	if err != nil {
		return nil, stepErr(StepCatalogTemplate, c.Dir, err, "")
	}
	for _, old := range cur.Bundles {
		if old.Name != b.Name || old.Package != b.Package {
			continue
		}
		if old.Image == b.Image {
			return nil, nil
		}
		d := releasedDifference(old, b)
		if d == "" {
			r.publishedRelease(c, b.Name, old.Image)
			return nil, nil
		}
		if err := r.rebuiltRelease(c, b.Name, old.Image, b.Image, d); err != nil {
			return nil, err
		}
		changed, err := template.ReplaceFBCBundle(files, b)
		if err != nil {
			return nil, stepErr(StepCatalogTemplate, c.Dir, err, "replace the bundle "+b.Name+" in "+c.Dir+" by hand")
		}
		return changed, nil
	}
	return nil, stepErr(StepCatalogTemplate, c.Dir, fmt.Errorf("bundle %s is in the catalog under another package", b.Name), "")
}

// loadFBCFiles loads catalog files (path → content), in path order.
func loadFBCFiles(files map[string][]byte) (*fbc.DeclarativeConfig, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	out := &fbc.DeclarativeConfig{}
	for _, n := range names {
		cfg, err := fbc.LoadReader(bytes.NewReader(files[n]), n)
		if err != nil {
			return nil, err
		}
		out.Packages = append(out.Packages, cfg.Packages...)
		out.Channels = append(out.Channels, cfg.Channels...)
		out.Bundles = append(out.Bundles, cfg.Bundles...)
		out.Deprecations = append(out.Deprecations, cfg.Deprecations...)
		out.Others = append(out.Others, cfg.Others...)
	}
	return out, nil
}

// publishedEdges marks the findings about upgrade edges between releases already in an fbc
// catalog (CRD changes, releases only in the graph as a skip): they were published before this
// build and no build can change them. Every such finding (error, warning or info) says so the same
// way (finding.MarkPublished: the message's prefix and published in JSON); errors become warnings.
// A finding on edges of which one leads into or out of the bundle being built keeps its severity
// and wording.
func (r *run) publishedEdges(fs []finding.Finding) []finding.Finding {
	for i, f := range fs {
		if len(f.Edges) == 0 {
			continue
		}
		published := true
		for _, e := range f.Edges {
			published = published && e.To != r.csvName && e.From != r.csvName
		}
		if published {
			fs[i].MarkPublished()
		}
	}
	return fs
}
