package validate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/packagemanifest"
	"github.com/opack/opack/internal/tmpdir"
)

// Rules of opack's own checks of the bundle tree.
const (
	RuleTree      = "opack/tree"
	RuleNotBundle = "opack/not-a-bundle"
	RuleMultiDoc  = "opack/multi-document"
	RuleInternal  = "opack/internal"
)

// Bundles validates each argument — a bundle folder, a package-manifest folder or a bundle image — in
// parallel and returns one report, the findings of each argument in argument order. A malformed or unreadable
// bundle is a finding. The error is for what stops the run: a bad selector, or an argument that is neither an
// existing path nor an image reference.
func Bundles(ctx context.Context, args []string, opts ...Option) (*finding.Report, error) {
	cfg, err := makeConfig(opts)
	if err != nil {
		return nil, err
	}
	targets := make([]target, len(args))
	for i, a := range args {
		if targets[i], err = classify(a, cfg.puller != nil); err != nil {
			return nil, err
		}
	}
	results := make([][]finding.Finding, len(targets))
	pullErrs := make([]error, len(targets))
	sem := make(chan struct{}, cfg.parallelism)
	var wg sync.WaitGroup
	var mu sync.Mutex // serializes progress calls
	done := 0
	for i, t := range targets {
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i], pullErrs[i] = cfg.validateTarget(ctx, t)
			if cfg.progress != nil {
				mu.Lock()
				done++
				cfg.progress(done, len(targets))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	report := &finding.Report{}
	for _, fs := range results {
		report.Add(fs...)
	}
	return report, errors.Join(pullErrs...)
}

type target struct {
	arg   string
	image bool
}

// classify tells folders from image references with the rule every opack command shares
// (image.ParseSource): an existing path is a folder (or a file, reported later), a folder holding
// an OCI layout is that layout, oci:DIR[:TAG] is a layout, a reference with a registry host, tag or
// digest is a registry image, and anything else is a missing path.
func classify(arg string, canPull bool) (target, error) {
	src, err := image.ParseSource(arg)
	if err != nil {
		return target{}, err
	}
	if !src.IsImage() {
		return target{arg: arg}, nil
	}
	if !canPull {
		return target{}, fmt.Errorf("%s: no such folder; pulling images is not available here", arg)
	}
	return target{arg: src.Ref, image: true}, nil
}

// validateTarget validates one argument; the error reports an image that could not be pulled. A validator
// that panics (operator-framework/api's operatorhub validators do on `icon: []`) becomes an error finding for
// this argument; the other arguments are still checked.
func (c *config) validateTarget(ctx context.Context, t target) (fs []finding.Finding, err error) {
	defer func() {
		if p := recover(); p != nil {
			fs = append(fs, finding.Errorf(t.arg, "", RuleInternal,
				"a validator crashed on this bundle (%v); the bundle likely holds an unexpected value (e.g. an empty list where an item is required): check the CSV, and report this to opack", p))
		}
	}()
	if !t.image {
		return c.validateDir(ctx, t.arg), nil
	}
	tmp, err := tmpdir.Make("bundle")
	if err != nil {
		return nil, fmt.Errorf("pulling %s: %w", t.arg, err)
	}
	defer tmpdir.Remove(tmp)
	dir := filepath.Join(tmp, "bundle")
	if _, err := c.puller.Unpack(ctx, t.arg, dir); err != nil {
		return nil, fmt.Errorf("pulling %s: %w", t.arg, err)
	}
	fs = c.validateDir(ctx, dir)
	for i := range fs {
		fs[i].File = relabel(fs[i].File, dir, t.arg)
		fs[i].Message = strings.ReplaceAll(fs[i].Message, dir, t.arg)
	}
	return fs, nil
}

// relabel names a file of an unpacked image as IMAGE/path.
func relabel(file, dir, ref string) string {
	if file == dir {
		return ref
	}
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return ref + "/" + filepath.ToSlash(rel)
	}
	return file
}

// validateDir validates a bundle folder or a package-manifest folder.
func (c *config) validateDir(ctx context.Context, dir string) []finding.Finding {
	dir = filepath.Clean(dir)
	fi, err := os.Stat(dir)
	if err != nil {
		return []finding.Finding{finding.Errorf(dir, "", RuleNotBundle, "reading %s: %v", dir, err)}
	}
	if !fi.IsDir() {
		if fi.Size() == 0 {
			return []finding.Finding{finding.Errorf(dir, "", RuleNotBundle, "%s is empty: not a bundle; give the folder holding manifests/ and metadata/, or a package-manifest folder", dir)}
		}
		return []finding.Finding{finding.Errorf(dir, "", RuleNotBundle, "%s is a file, not a bundle: give the folder holding manifests/ and metadata/, or a package-manifest folder", dir)}
	}
	files, err := manifest.Files(dir)
	if err != nil {
		return []finding.Finding{finding.Errorf(dir, "", RuleTree, "%v", err)}
	}
	if len(files) == 0 {
		return []finding.Finding{finding.Errorf(dir, "", RuleNotBundle, "%s is empty: not a bundle; it holds no files (was the bundle generated?)", dir)}
	}
	if pkgFile := packagemanifest.FindPackageFile(dir); pkgFile != "" {
		return c.validatePackageDir(ctx, dir, pkgFile)
	}
	if !isDir(filepath.Join(dir, "manifests")) && !isFile(filepath.Join(dir, "metadata", "annotations.yaml")) {
		return []finding.Finding{finding.Errorf(dir, "", RuleNotBundle, "%s is not a bundle: no manifests/ folder, no metadata/annotations.yaml and no package manifest (<package>.package.yaml)", dir)}
	}
	return c.validateBundleDir(ctx, dir)
}

// validatePackageDir applies operator-framework/api's package manifest validator and operator-registry's
// import rules, then validates every version folder as a bundle.
func (c *config) validatePackageDir(ctx context.Context, dir, pkgFile string) []finding.Finding {
	pd, out := packagemanifest.LoadPackageDir(dir, pkgFile, c.parsed)
	if pd == nil {
		return out
	}
	out = append(out, pd.ImportFindings()...)
	for _, b := range pd.Versions {
		out = append(out, c.bundleFindings(ctx, &loadedBundle{b})...)
	}
	return out
}

// loadedBundle is a bundle as operator-sdk's `bundle validate` loads it; validate's checks are its methods.
type loadedBundle struct{ *packagemanifest.Bundle }

// bundleRun is one bundle being validated.
type bundleRun struct {
	cfg *config
	lb  *loadedBundle
}

// validateBundleDir runs operator-sdk's pipeline, then opack's checks, on one bundle folder.
func (c *config) validateBundleDir(ctx context.Context, dir string) []finding.Finding {
	b, err := packagemanifest.LoadBundleDir(dir, c.parsed)
	if err != nil {
		var le *packagemanifest.LoadError
		file := dir
		if errors.As(err, &le) {
			file = le.File
		}
		return []finding.Finding{finding.Errorf(file, "", RuleLoad, "%v", err)}
	}
	lb := &loadedBundle{b}
	var out []finding.Finding
	if errs, annotationsFile := formatErrors(dir, lb.MediaType); len(errs) > 0 {
		file := annotationsFile
		if file == "" {
			file = dir
		}
		out = append(out, finding.Errorf(file, "", RuleFormat, "%s", formatMessage(dir, errs)))
	}
	return append(out, c.bundleFindings(ctx, lb)...)
}

// bundleFindings runs operator-sdk's content and optional validators, then opack's checks, on a loaded bundle.
func (c *config) bundleFindings(ctx context.Context, lb *loadedBundle) []finding.Finding {
	r := &bundleRun{cfg: c, lb: lb}
	crdSDK, crdServer := lb.crdChecks(ctx, c.values["k8s-version"], c.crdCache)
	out := lb.findings(lb.contentResults(crdSDK))
	out = append(out, lb.deploymentFindings()...)
	out = append(out, r.optionalFindings(ctx)...)
	if c.serverChecks && lb.MediaType != packagemanifest.MediaTypeHelm {
		out = append(out, crdServer...)
	}
	for _, f := range lb.ExtraDocs {
		out = append(out, finding.Warnf(f.Path, finding.ObjectName(f.Obj.GetKind(), f.Obj.GetName()), RuleMultiDoc,
			"file holds %d YAML documents; OLM and operator-sdk read only the first: put each object in its own file", f.Docs))
	}
	return out
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
