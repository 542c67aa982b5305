package project

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/kustomize"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/txn"
)

// DefaultBundleDockerfile is the bundle Dockerfile build writes beside bundle.dir, as operator-sdk does.
const DefaultBundleDockerfile = "bundle.Dockerfile"

// run is one execution of the pipeline: every file it makes goes below stage until finish.
type run struct {
	p     *config.Project
	o     *buildOptions
	stage string   // where outputs are staged: the transaction's folder (build), scratch (check)
	tx    *txn.Txn // build: commits the outputs at the write step
	check bool
	res   *BuildResult

	version   string
	outputs   []output
	bundleDir string // the staged bundle folder
	csvName   string
	bundleImg v1.Image
	images    *localImages
	// rendered caches the render of each catalog's template as it is on disk, by catalog index.
	rendered map[int]*fbc.DeclarativeConfig
	catalogs []builtCatalog
	// prevEdge is the upgrade edge checked by the crd-upgrade step (skipped by the catalog check).
	prevEdge graph.EdgeKey
	// usedWaivers are the indexes of the waivers of opack.yaml that matched a finding.
	usedWaivers map[int]bool
	// crdSrc maps CRD names to the files under the kustomize tree they are generated from.
	crdSrc map[string]string
	// refusals are check's findings about released versions this build would change.
	refusals []finding.Finding
	// signing is opack.yaml's signing for this run (nil without one); catalogDirs are the staged
	// folders of the rendered catalogs, in opack.yaml order.
	signing     *signingPlan
	catalogDirs []string
}

// builtCatalog is a catalog image waiting to be pushed.
type builtCatalog struct {
	tag string
	art image.Artifact
}

// path returns a project-relative path as a path usable from the working folder.
func (r *run) path(rel string) string { return filepath.Join(r.p.Dir, filepath.FromSlash(rel)) }

// staged returns a path below the staging folder.
func (r *run) staged(parts ...string) string {
	return filepath.Join(append([]string{r.stage}, parts...)...)
}

func (r *run) pipeline(ctx context.Context) error {
	if err := r.steps(ctx); err != nil {
		return err
	}
	return r.finish(ctx)
}

// steps runs the steps of one bundle, up to its outputs staged and checked.
func (r *run) steps(ctx context.Context) error {
	if err := r.resolve(ctx); err != nil {
		return err
	}
	steps := []struct {
		name string
		fn   func(context.Context) error
	}{
		{StepGenerate, r.generate},
		{StepValidate, r.validateBundle},
		// The bundle image comes first: a template naming this very image by digest (a fresh
		// checkout, no _output/) is then rendered from it, never pulled.
		{StepBundleImage, r.buildBundleImage},
		{StepCRDUpgrade, r.crdUpgrade},
		{StepCatalogTemplate, r.buildCatalogs},
		{StepSignatures, r.verifySignatures},
		{StepEmit, r.emitManifests},
	}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.o.logf("%s", s.name)
		if err := s.fn(ctx); err != nil {
			return err
		}
	}
	// Every check ran: a waiver that matched nothing is a typo or a leftover.
	r.res.Warnings = append(r.res.Warnings, r.p.UnusedWaivers(r.usedWaivers)...)
	return r.checkRemovals()
}

// finish saves the version, records the owned files, and then reports (check) or pushes and
// writes (build) the staged outputs.
func (r *run) finish(ctx context.Context) error {
	if err := r.saveVersion(); err != nil {
		return err
	}
	if err := r.recordOwned(); err != nil {
		return err
	}
	if r.check {
		if err := r.diff(); err != nil {
			return err
		}
		if len(r.refusals) > 0 {
			return &StepError{Step: StepCatalogTemplate, File: r.refusals[0].File, Findings: r.refusals, failed: true,
				Err: fmt.Errorf("%d released version(s) would change", len(r.refusals)),
				Fix: "build a new version, or pass --allow-rebuild to opack build if it was never published"}
		}
		return nil
	}
	if r.o.push {
		r.o.logf("%s", StepPush)
		if err := r.push(ctx); err != nil {
			return err
		}
	}
	r.o.logf("%s", StepWrite)
	return r.write()
}

// resolve checks what the pipeline needs from opack.yaml before anything runs.
func (r *run) resolve(ctx context.Context) error {
	v, err := r.p.ResolveVersion(ctx, config.WithVersion(r.o.version), config.WithGit(r.o.git))
	if err != nil {
		return stepErr(StepConfig, r.p.File, err, "set version in "+r.p.File+" or pass --version")
	}
	r.version, r.res.Version = v, v
	if len(r.p.Catalogs) == 0 {
		return stepErr(StepConfig, r.p.File, fmt.Errorf("no catalogs"), "add a catalogs entry with the catalog image")
	}
	r.rendered = map[int]*fbc.DeclarativeConfig{}
	r.images = newLocalImages(r.o.imageOpts, &r.o.remote)
	if !r.o.push {
		// Earlier offline builds left their images here: templates reference them by digest.
		for _, name := range append([]string{"bundle"}, r.catalogNames()...) {
			if err := r.images.addLayout(r.path(r.imagesDir(name))); err != nil {
				return stepErr(StepConfig, r.imagesDir(name), err, "remove "+r.imagesDir(name)+": it is an output of opack build (an OCI layout), which the next build writes again")
			}
		}
	}
	return r.resolveSigning()
}

// catalogNames are the names of the catalogs' image layouts.
func (r *run) catalogNames() []string {
	var out []string
	for _, c := range r.p.Catalogs {
		out = append(out, c.Name)
	}
	return out
}

// imagesDir is the OCI layout of an image below outputs.dir.
func (r *run) imagesDir(name string) string {
	return filepath.ToSlash(filepath.Join(r.p.Outputs.Dir, "images", name))
}

// bundleOptions are the generator's options for this project.
func (r *run) bundleOptions() bundle.Options {
	p := r.p
	return bundle.Options{
		ProjectDir:      p.Dir,
		Package:         p.Package,
		Version:         r.version,
		Channels:        strings.Join(p.Channels, ","),
		DefaultChannel:  p.BundleDefaultChannel(),
		KustomizeDir:    r.path(p.KustomizeDir),
		ProjectRoot:     p.Dir,
		AllowRemote:     r.o.allowRemote,
		OutputDir:       r.path(p.Bundle.Dir),
		Dockerfile:      r.path(p.Bundle.Dockerfile),
		SourceDateEpoch: r.o.sourceDateEpoch,
		Mode:            bundle.ModeCheck,
		APIsDir:         r.apisDir(),
		BaseInputDir:    r.path(p.KustomizeManifests.InputDir),
		BaseOutputDir:   r.path(p.KustomizeManifests.OutputDir),

		ExtraServiceAccounts: p.Bundle.ExtraServiceAccounts,
		Kustomize:            []kustomize.Option{kustomize.WithCache(r.o.cache)},
	}
}

// apisDir is the Go API folder the kustomize-manifests step reads ("" when turned off).
func (r *run) apisDir() string {
	if r.o.noGoTypes || r.p.KustomizeManifests.Skip {
		return ""
	}
	return r.p.KustomizeManifests.APIsDir
}
