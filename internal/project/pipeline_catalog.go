package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/rootfs"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/image"
)

// CatalogFormat is the format of the rendered catalogs (<dir>/<package>/catalog.yaml).
const CatalogFormat = "yaml"

// readTemplate returns the template of catalog i, or a new basic template for the package when the
// project has none yet (ok false).
func (r *run) readTemplate(i int) (data []byte, ok bool, err error) {
	c := r.p.Catalogs[i]
	data, err = rootfs.ReadFile(r.p.Dir, c.Template)
	if errors.Is(err, fs.ErrNotExist) {
		return newBasicTemplate(r.p.Package, r.p.DefaultChannel), false, nil
	}
	if err != nil {
		return nil, false, stepErr(StepCatalogTemplate, c.Template, err, "")
	}
	return data, true, nil
}

// newBasicTemplate is the template of a package's first release.
func newBasicTemplate(pkg, defaultChannel string) []byte {
	return []byte(fmt.Sprintf(`schema: olm.template.basic
entries:
- schema: olm.package
  name: %s
  defaultChannel: %s
`, quoteYAML(pkg), quoteYAML(defaultChannel)))
}

// renderCurrent renders catalog i's template as it is on disk (nil when there is none).
func (r *run) renderCurrent(ctx context.Context, i int) (*fbc.DeclarativeConfig, error) {
	if cfg, ok := r.rendered[i]; ok {
		return cfg, nil
	}
	if c := r.p.Catalogs[i]; c.Mode == config.CatalogModeFBC {
		files, err := r.fbcFiles(c)
		if err != nil {
			return nil, stepErr(StepCatalogTemplate, c.Dir, err, "")
		}
		cfg, err := loadFBCFiles(files)
		if err != nil {
			return nil, stepErr(StepCatalogTemplate, c.Dir, err, "")
		}
		r.rendered[i] = cfg
		return cfg, nil
	}
	data, ok, err := r.readTemplate(i)
	if err != nil || !ok {
		return nil, err
	}
	cfg, err := r.renderTemplate(ctx, i, data)
	if err != nil {
		return nil, err
	}
	r.rendered[i] = cfg
	return cfg, nil
}

// renderTemplate renders a template of catalog i; bundles come from this build's images, earlier
// offline builds' layouts, or their registries.
func (r *run) renderTemplate(ctx context.Context, i int, data []byte) (*fbc.DeclarativeConfig, error) {
	c := r.p.Catalogs[i]
	rd, err := render.NewRenderer(render.WithPuller(r.images))
	if err != nil {
		return nil, stepErr(StepRender, c.Template, err, "")
	}
	base := filepath.Dir(r.path(c.Template))
	cfg, err := template.RenderTemplate(ctx, data, "", confinedRefs(r.p.Dir, base, template.LocalBundleRenderer(base, rd.RenderBundle)))
	if err != nil {
		return nil, stepErr(StepRender, c.Template, err,
			"every bundle of the template must be pullable (or in "+r.imagesDir("")+" from an earlier offline build)")
	}
	return cfg, nil
}

// buildCatalogs adds the bundle to each catalog's template, renders and validates the catalog and
// builds its image.
func (r *run) buildCatalogs(ctx context.Context) error {
	for i := range r.p.Catalogs {
		if err := r.buildCatalog(ctx, i); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) buildCatalog(ctx context.Context, i int) error {
	c := r.p.Catalogs[i]
	if c.Mode == config.CatalogModeFBC {
		return r.buildFBCCatalog(ctx, i)
	}
	data, err := r.addToTemplate(ctx, i)
	if err != nil {
		return err
	}
	tmpl := r.staged("templates", fmt.Sprint(i), filepath.Base(c.Template))
	if err := writeStaged(tmpl, data); err != nil {
		return stepErr(StepCatalogTemplate, c.Template, err, "")
	}
	r.addOutput(c.Template, tmpl, false, true)

	r.o.logf("%s %s", StepRender, c.Name)
	cfg, err := r.renderTemplate(ctx, i, data)
	if err != nil {
		return err
	}
	dir := r.staged("catalogs", fmt.Sprint(i))
	if c.File != "" {
		// one file, as opm alpha render-template -o yaml writes it; the folder holding only it is
		// what is validated and put into the image
		var b bytes.Buffer
		if err := fbc.WriteYAML(*cfg, &b); err != nil {
			return stepErr(StepRender, c.File, err, "")
		}
		f := filepath.Join(dir, filepath.Base(c.File))
		if err := writeStaged(f, b.Bytes()); err != nil {
			return stepErr(StepRender, c.File, err, "")
		}
		r.addOutput(c.File, f, false, true)
	} else {
		if err := fbc.WriteDir(*cfg, dir, CatalogFormat); err != nil {
			return stepErr(StepRender, c.Dir, err, "")
		}
		r.addOutput(c.Dir, dir, true, true)
	}

	r.o.logf("%s %s", StepCatalogValidate, c.Name)
	if err := r.validateCatalog(ctx, c, dir); err != nil {
		return err
	}
	r.o.logf("%s %s", StepCatalogImage, c.Name)
	return r.buildCatalogImage(ctx, c, dir)
}

// addToTemplate returns catalog i's template with the new bundle in it, by digest: added to the
// channels, or, when the template already has this bundle version under another image (a rebuild
// of the same version), with that reference replaced. An up-to-date template is returned as is.
func (r *run) addToTemplate(ctx context.Context, i int) ([]byte, error) {
	c := r.p.Catalogs[i]
	data, _, err := r.readTemplate(i)
	if err != nil {
		return nil, err
	}
	ref := r.res.Bundle.Digest
	cur, err := r.renderCurrent(ctx, i)
	if err != nil {
		return nil, err
	}
	rd, err := render.NewRenderer(render.WithPuller(r.images))
	if err != nil {
		return nil, stepErr(StepCatalogTemplate, c.Template, err, "")
	}
	if cur != nil {
		for _, b := range cur.Bundles {
			if b.Name != r.csvName || b.Package != r.p.Package {
				continue
			}
			if b.Image == ref {
				return data, nil
			}
			built, err := rd.RenderBundle(ctx, ref)
			if err != nil || len(built.Bundles) != 1 {
				return nil, stepErr(StepRender, c.Template, fmt.Errorf("rendering %s: %v", ref, err), "")
			}
			d := releasedDifference(b, built.Bundles[0])
			if d == "" {
				r.publishedRelease(c, b.Name, b.Image)
				return data, nil
			}
			if n := bytes.Count(data, []byte(b.Image)); n != 1 {
				return nil, stepErr(StepCatalogTemplate, c.Template, fmt.Errorf("bundle %s is in the template as %s (found %d times), not as %s, which differs: %s", b.Name, b.Image, n, ref, d),
					"remove the old entry of "+b.Name+" from "+c.Template+", or build a new version")
			}
			if err := r.rebuiltRelease(c, b.Name, b.Image, ref, d); err != nil {
				return nil, err
			}
			return bytes.ReplaceAll(data, []byte(b.Image), []byte(ref)), nil
		}
	}
	out, err := template.AddTemplateBundle(ctx, data, ref, template.TemplateAddOptions{Channels: r.p.Channels, Render: rd.RenderBundle})
	if err != nil {
		return nil, stepErr(StepCatalogTemplate, c.Template, fmt.Errorf("adding %s: %w", ref, err),
			"the channels of "+r.p.File+" must fit the template (semver templates: candidate, fast or stable)")
	}
	return out, nil
}

// validateCatalog loads the rendered catalog back and validates it as `opack catalog validate`
// does, with the CRD checks of every upgrade edge under the waivers and migrations of opack.yaml.
func (r *run) validateCatalog(ctx context.Context, c config.Catalog, dir string) error {
	cfg, err := fbc.LoadDir(ctx, dir)
	if err != nil {
		return stepErr(StepCatalogValidate, c.Rendered(), err, "")
	}
	rep := check.Validate(ctx, cfg, check.WithChecks(check.CheckOPM, check.CheckDeps, check.CheckGraph), check.WithFile(c.Rendered()))
	fs := append(rep.Findings, r.defaultChannelFindings(cfg, c)...)
	fs = append(fs, r.edgeFindings(ctx, cfg, c.Rendered())...)
	if c.Mode == config.CatalogModeFBC {
		fs = append(r.publishedEdges(fs), r.fbcDiffFindings(ctx, c, dir)...)
	}
	return r.splitFindings(StepCatalogValidate, fs, "problem(s) in catalog "+c.Name,
		"fix the channels of "+c.Source()+" (or accept a reviewed CRD finding with a waivers entry in "+r.p.File+")")
}

// buildCatalogImage builds the catalog image (reproducible) and stages it in an OCI layout.
func (r *run) buildCatalogImage(ctx context.Context, c config.Catalog, dir string) error {
	tagRef, err := r.p.CatalogImage(c, r.version)
	if err != nil {
		return stepErr(StepCatalogImage, r.p.File, err, "")
	}
	ref, err := name.ParseReference(tagRef)
	if err != nil {
		return stepErr(StepCatalogImage, r.p.File, err, "")
	}
	opts := append([]image.Option{image.WithBase(c.Base), image.WithVersion(r.version), image.WithServeCache(c.HasServeCache())}, r.o.imageOpts...)
	if r.o.cache != nil {
		opts = append(opts, image.WithServeCacheStore(r.o.cache))
	}
	art, err := image.Catalog(ctx, dir, opts...)
	if err != nil {
		return stepErr(StepCatalogImage, c.Dir, err, "check catalogs base in "+r.p.File+" (scratch, or an opm image you can pull)")
	}
	h, err := art.Digest()
	if err != nil {
		return stepErr(StepCatalogImage, c.Dir, err, "")
	}
	cr := CatalogRef{Name: c.Name, Dir: c.Rendered(), ImageRef: ImageRef{Tag: tagRef, Digest: ref.Context().Digest(h.String()).Name()}}
	if !r.o.push {
		rel := r.imagesDir(c.Name)
		layout, err := r.stageLayout(rel)
		if err != nil {
			return stepErr(StepCatalogImage, rel, err, "")
		}
		if err := stageImage(ctx, layout, ref.Identifier(), art); err != nil {
			return stepErr(StepCatalogImage, rel, err, "")
		}
		cr.Layout = rel
	}
	r.res.Catalogs = append(r.res.Catalogs, cr)
	r.catalogs = append(r.catalogs, builtCatalog{tag: tagRef, art: art})
	r.catalogDirs = append(r.catalogDirs, dir)
	return nil
}

func writeStaged(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
