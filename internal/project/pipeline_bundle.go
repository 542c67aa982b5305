package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/kustomize"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/validate"
)

// generate builds the bundle in memory (as `opack generate bundle --check` does, so createdAt is
// kept when the CSV did not change) and stages the folder the project would get.
func (r *run) generate(ctx context.Context) error {
	p := r.p
	if err := r.checkPackage(); err != nil {
		return err
	}
	opts := r.bundleOptions()
	base, err := bundle.BaseFromGoTypes(ctx, opts)
	if err != nil {
		return stepErr(StepGenerate, p.KustomizeDir, err, "fix the Go API types (opack generate kustomize-manifests reads the same), or build with --kustomize-manifests=false")
	}
	if base != nil {
		opts.Base = base
		r.res.Warnings = append(r.res.Warnings, base.Warnings...)
		for _, f := range base.Files {
			name := f.Name
			if rel, err := filepath.Rel(p.Dir, f.Name); err == nil {
				name = filepath.ToSlash(rel)
			}
			r.res.Warnings = append(r.res.Warnings, baseWarning(f.Name, name))
		}
	}
	if len(p.Images) > 0 {
		out, err := r.kustomizeWithImages(ctx, base)
		if err != nil {
			fix := "fix the images entries of " + p.File + " or the kustomization"
			if errors.As(err, new(*kustomize.RemoteError)) {
				fix = "" // the refusal says how
			}
			return stepErr(StepGenerate, p.KustomizeDir, err, fix)
		}
		opts.Input, opts.InputName = bytes.NewReader(out), "kustomize build "+p.KustomizeDir+" (with the images of "+p.File+")"
	}
	res, err := bundle.Generate(ctx, opts)
	if err != nil {
		return stepErr(StepGenerate, p.KustomizeDir, err, "fix the kustomize input (kustomize build "+p.KustomizeDir+" must give the operator's manifests and its base CSV)")
	}
	if res.CSV == nil || res.Dockerfile == nil {
		return stepErr(StepGenerate, p.KustomizeDir, errors.New("the generator made no CSV"), "")
	}
	r.csvName = res.CSV.Name
	r.notice(res.Notices...)
	for _, w := range res.Warnings {
		// The validate step runs the same CSV validator and reports its findings with their file.
		if !strings.HasPrefix(w, bundle.CSVValidationWarning) {
			r.res.Warnings = append(r.res.Warnings, ObjectWarning("ClusterServiceVersion", r.csvName, w))
		}
	}
	r.res.Dropped = append(r.res.Dropped, res.Dropped...)
	tree, err := bundleTree(opts.OutputDir, res)
	if err != nil {
		return stepErr(StepGenerate, p.Bundle.Dir, err, "")
	}
	if r.res.BundleChanged, err = treeDiffers(opts.OutputDir, tree); err != nil {
		return stepErr(StepGenerate, p.Bundle.Dir, err, "")
	}
	r.bundleDir = r.staged("bundle")
	if err := writeTree(r.bundleDir, tree); err != nil {
		return stepErr(StepGenerate, p.Bundle.Dir, fmt.Errorf("staging the bundle: %w", err), "")
	}
	dockerfile := r.staged("dockerfile", filepath.Base(p.Bundle.Dockerfile))
	if err := writeStaged(dockerfile, res.Dockerfile.Data); err != nil {
		return stepErr(StepGenerate, p.Bundle.Dockerfile, err, "")
	}
	r.addOutput(p.Bundle.Dir, r.bundleDir, true, true)
	r.addOutput(p.Bundle.Dockerfile, dockerfile, false, true)
	return nil
}

// bundleTree is the bundle folder Generate would write: the files on disk, without the manifests
// this run does not generate, with the generated files.
func bundleTree(dir string, res *bundle.Result) (map[string][]byte, error) {
	tree, err := readTree(dir)
	if err != nil {
		return nil, err
	}
	for _, rm := range res.Removed {
		delete(tree, rm)
	}
	for _, f := range res.Files {
		tree[f.Name] = f.Data
	}
	return tree, nil
}

// validateBundle validates the staged bundle as `opack validate bundle` does.
// A bundle byte for byte the same as one validated before takes that validation's findings from
// the step cache.
func (r *run) validateBundle(ctx context.Context) error {
	key, fs, ok := r.o.cachedValidation(r.bundleDir)
	if !ok {
		rep, err := validate.Bundles(ctx, []string{r.bundleDir})
		if err != nil {
			return stepErr(StepValidate, r.p.Bundle.Dir, err, "")
		}
		fs = r.relabel(rep.Findings)
		r.o.keepValidation(key, fs)
	}
	var errs []finding.Finding
	for _, f := range fs {
		if f.Severity == finding.SeverityError {
			errs = append(errs, f)
		} else {
			r.res.Findings = append(r.res.Findings, f)
		}
	}
	if len(errs) > 0 {
		return &StepError{Step: StepValidate, File: r.p.Bundle.Dir, Findings: errs, failed: true,
			Err: fmt.Errorf("the generated bundle is invalid (%s)", (&finding.Report{Findings: fs}).Summary()),
			Fix: "fix the kustomize input under " + r.p.KustomizeDir + " the bundle is generated from (the findings name the objects)"}
	}
	return nil
}

// relabel names staged files by their place in the project.
func (r *run) relabel(fs []finding.Finding) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	for i, f := range fs {
		f.File = r.projectName(f.File)
		f.Message = strings.ReplaceAll(f.Message, r.bundleDir, r.p.Bundle.Dir)
		out[i] = f
	}
	return out
}

// projectName turns a path below the staged bundle into the project's path.
func (r *run) projectName(file string) string {
	if r.bundleDir == "" {
		return file
	}
	if rel, err := filepath.Rel(r.bundleDir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(filepath.Join(r.p.Bundle.Dir, rel))
	}
	return file
}

// buildBundleImage builds the bundle image (reproducible: unchanged input, same digest) and writes
// it into an OCI layout, so templates can name it by digest before anything is pushed.
func (r *run) buildBundleImage(ctx context.Context) error {
	tagRef, err := r.p.BundleImage(r.version)
	if err != nil {
		return stepErr(StepBundleImage, r.p.File, err, "set bundle.image to the bundle image repository")
	}
	img, err := image.Bundle(ctx, r.bundleDir, image.WithVersion(r.version))
	if err != nil {
		return stepErr(StepBundleImage, r.p.Bundle.Dir, err, "")
	}
	h, err := img.Digest()
	if err != nil {
		return stepErr(StepBundleImage, r.p.Bundle.Dir, err, "")
	}
	ref, err := name.ParseReference(tagRef)
	if err != nil {
		return stepErr(StepBundleImage, r.p.File, err, "")
	}
	r.bundleImg = img
	r.res.Bundle = ImageRef{Tag: tagRef, Digest: ref.Context().Digest(h.String()).Name()}
	layout, err := r.stageLayout(r.imagesDir("bundle"))
	if err != nil {
		return stepErr(StepBundleImage, r.imagesDir("bundle"), err, "")
	}
	if err := stageImage(ctx, layout, ref.Identifier(), img); err != nil {
		return stepErr(StepBundleImage, r.imagesDir("bundle"), err, "")
	}
	if !r.o.push {
		r.res.Bundle.Layout = r.imagesDir("bundle")
	}
	r.images.addImage(r.res.Bundle.Digest, layout, h.String())
	return nil
}

// stageLayout prepares the staged OCI layout of rel: offline, a copy of the project's (earlier
// images are kept), registered as an output; with push or for check, an empty one that never
// leaves the stage (the project's layouts are still read for earlier images).
func (r *run) stageLayout(rel string) (string, error) {
	dst := r.staged("layouts", filepath.FromSlash(rel))
	if r.o.push || r.check {
		return dst, os.MkdirAll(dst, 0o755)
	}
	if err := copyTree(r.path(rel), dst); err != nil {
		return "", err
	}
	r.addOutput(rel, dst, true, false)
	return dst, nil
}

// readTree reads every file below dir (nil, no error, when dir does not exist).
func readTree(dir string) (map[string][]byte, error) {
	tree := map[string][]byte{}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return tree, nil
	}
	files, err := manifest.Files(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := manifest.ReadBytes(filepath.Join(dir, filepath.FromSlash(f))) // listed by manifest.Files: regular, inside dir
		if err != nil {
			return nil, err
		}
		tree[f] = data
	}
	return tree, nil
}

// treeDiffers reports whether the files below dir differ from tree.
func treeDiffers(dir string, tree map[string][]byte) (bool, error) {
	cur, err := readTree(dir)
	if err != nil {
		return false, err
	}
	return !maps.EqualFunc(cur, tree, bytes.Equal), nil
}

// writeTree writes tree below dir.
func writeTree(dir string, tree map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range tree {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ObjectWarning names the object a warning is about ("Kind name: warning") unless it already
// starts with that kind.
func ObjectWarning(kind, name, w string) string {
	if strings.HasPrefix(w, kind+" ") || name == "" {
		return w
	}
	return kind + " " + name + ": " + w
}

// baseWarning says that the base CSV at path (shown as name) was regenerated in memory for the bundle.
func baseWarning(path, name string) string {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("%s does not exist: the bundle uses the base CSV generated from the Go API types, as operator-sdk generate kustomize manifests would write it; run opack generate kustomize-manifests to write it", name)
	}
	return fmt.Sprintf("%s is out of date with the Go API types: the bundle uses the regenerated one; run opack generate kustomize-manifests to update it", name)
}
