package project

import (
	"context"
	"errors"
	"fmt"
	"github.com/opack/opack/internal/escape"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/sign"
	"github.com/opack/opack/internal/stepcache"
	"github.com/opack/opack/internal/tmpdir"
)

// Pipeline steps, in the order opack build runs them; a StepError names one.
const (
	StepConfig          = "config"
	StepGenerate        = "generate"
	StepValidate        = "validate"
	StepBundleImage     = "bundle-image"
	StepCRDUpgrade      = "crd-upgrade"
	StepCatalogTemplate = "catalog-template"
	StepRender          = "render"
	StepCatalogValidate = "catalog-validate"
	StepCatalogImage    = "catalog-image"
	StepEmit            = "emit"
	StepPush            = "push"
	StepWrite           = "write"
)

// StepError is a failed pipeline step: what failed (the step, the file) and how to fix it. Findings
// holds the error findings when the step is a check (validation, CRD upgrade safety).
type StepError struct {
	Step     string
	File     string
	Err      error
	Fix      string
	Findings []finding.Finding
	// failed marks a check that found errors (as opposed to a step that could not run).
	failed bool
}

// Is makes errors.Is(err, ErrFindings) true for a check that found errors.
func (e *StepError) Is(target error) bool { return target == ErrFindings && e.failed }

func (e *StepError) Error() string {
	var b strings.Builder
	b.WriteString("step " + e.Step)
	if e.File != "" {
		b.WriteString(" (" + e.File + ")")
	}
	b.WriteString(": " + e.Err.Error())
	if e.Fix != "" {
		b.WriteString("; fix: " + e.Fix)
	}
	return b.String()
}

func (e *StepError) Unwrap() error { return e.Err }

// ErrFindings matches (errors.Is) the StepError of a check that found errors, as opposed to a step
// that could not run: callers exit with their "findings" code.
var ErrFindings = errors.New("the checks found errors")

func stepErr(step, file string, err error, fix string) error {
	if err == nil {
		return nil
	}
	var se *StepError
	if errors.As(err, &se) {
		return err
	}
	return &StepError{Step: step, File: file, Err: err, Fix: fix}
}

// BuildOption configures Build and Check.
type BuildOption func(*buildOptions)

type buildOptions struct {
	version         string
	push            bool
	log             io.Writer
	git             config.GitTags
	imageOpts       []image.Option
	sourceDateEpoch string
	allowRebuild    bool
	allowRemote     bool
	prune           bool
	noGoTypes       bool
	diffBase        string // opack check, fbc mode: the revision compared with (CheckDiffBase)
	sign            bool   // sign what is pushed (BuildSign)
	signKey         string

	cache            *stepcache.Cache // the step cache (StepCache); nil: none
	memo             bool             // check keeps its result (CheckMemo)
	cacheFingerprint string
	remote           atomic.Bool // an image was read from a registry (localImages.note)
	makefilePackage  namedAt     // the Makefile's generate bundle --package (BuildMakefilePackage)
}

// BuildAllowRemote lets the kustomization name http(s) URLs (--allow-remote); builds are
// otherwise offline.
func BuildAllowRemote(on bool) BuildOption { return func(o *buildOptions) { o.allowRemote = on } }

// BuildGoTypes (on by default) runs the kustomize-manifests step first, as operator-sdk's make
// bundle does for every layout: the bundle is generated from the base CSV as that step rewrites it
// (from the Go API types of kustomizeManifests.apisDir for a Go project), in memory: config/ is never
// edited; a stale base is reported as a warning.
func BuildGoTypes(on bool) BuildOption { return func(o *buildOptions) { o.noGoTypes = !on } }

// BuildVersion overrides the version (--version).
func BuildVersion(v string) BuildOption { return func(o *buildOptions) { o.version = v } }

// BuildPush pushes the bundle and catalog images to the registries named in opack.yaml instead of
// writing them to OCI layouts under outputs.dir.
func BuildPush(on bool) BuildOption { return func(o *buildOptions) { o.push = on } }

// BuildLog sends progress (one line per step) to w.
func BuildLog(w io.Writer) BuildOption { return func(o *buildOptions) { o.log = w } }

// BuildGit replaces the git reader used to read the version from tags (tests).
func BuildGit(g config.GitTags) BuildOption { return func(o *buildOptions) { o.git = g } }

// BuildImageOptions passes registry options (insecure, keychain, retries, logger) to pushes and pulls.
func BuildImageOptions(opts ...image.Option) BuildOption {
	return func(o *buildOptions) { o.imageOpts = append(o.imageOpts, opts...) }
}

// BuildAllowRebuild lets a build change the image (digest) of a version already in a catalog
// template: a rebuild of a version that was never published. Without it such a build fails.
func BuildAllowRebuild(on bool) BuildOption { return func(o *buildOptions) { o.allowRebuild = on } }

// BuildSourceDateEpoch is $SOURCE_DATE_EPOCH: the createdAt of a CSV that changed.
func BuildSourceDateEpoch(s string) BuildOption {
	return func(o *buildOptions) { o.sourceDateEpoch = s }
}

// BuildResult is what Build produced (or, for Check, would produce).
type BuildResult struct {
	Version string
	// Bundle is the bundle image: Tag the configured reference, Digest the reference by digest.
	Bundle ImageRef
	// Bundles are the bundle images of a project of several bundles, in opack.yaml order (Bundle
	// is the first).
	Bundles []NamedImage
	// Catalogs are the catalog images, in opack.yaml order.
	Catalogs []CatalogRef
	// Written are the outputs Build replaced, relative to the project folder, sorted; empty when
	// everything was up to date. For Check: the outputs that differ.
	Written []string
	// Outputs are every output of the build, relative to the project folder, sorted.
	Outputs []string
	// Diff is Check's unified diff of the outputs that differ ("" when up to date); DiffFiles are the
	// files that differ, relative to the project folder, sorted.
	Diff      string
	DiffFiles []string
	// Findings are the warnings and notes of every check (errors stop the build).
	Findings []finding.Finding
	// Warnings are other problems that did not stop the build.
	Warnings []string
	// Dropped are the kustomize objects the bundle generator neither wrote nor used.
	Dropped []bundle.Dropped
	// Signed are the images a build signed when it pushed them, with their attachments.
	Signed []sign.Signed
	// BundleChanged says the generated bundle folder differs from the project's (Build rewrites it,
	// Check reports it): what the bundle generator dropped is news only then.
	BundleChanged bool
}

// ImageRef names a built image.
type ImageRef struct {
	Tag    string // the reference opack.yaml gives (repository:tag)
	Digest string // the same repository by digest
	Layout string // the OCI layout holding it, offline ("" when pushed)
}

// NamedImage is the bundle image of one bundle of several.
type NamedImage struct {
	Name string
	ImageRef
}

// CatalogRef is one built catalog.
type CatalogRef struct {
	Name string
	Dir  string // rendered FBC folder, relative to the project
	ImageRef
}

func (o *buildOptions) logf(format string, args ...any) {
	if o.log != nil {
		fmt.Fprintln(o.log, escape.Text(fmt.Sprintf(format, args...))) // the message quotes input: one line
	}
}

// Build runs the release pipeline of p: generate the bundle, validate it, check the CRD upgrade
// against the previous release, build the bundle image, add it (by digest) to each catalog template,
// render and validate each catalog (including CRD safety on every upgrade edge), build the catalog
// images and render the deploy manifests. Everything is staged outside the project; only when every
// step passed are the outputs swapped into place, each atomically, and only those that changed.
// Offline (the default) images go to OCI layouts under outputs.dir; with BuildPush they are pushed.
func Build(ctx context.Context, p *config.Project, opts ...BuildOption) (*BuildResult, error) {
	return runPipeline(ctx, p, false, opts)
}

// Check runs everything Build does without writing into the project or pushing, and reports in
// BuildResult.Written and Diff the outputs that differ from what Build would write.
func Check(ctx context.Context, p *config.Project, opts ...BuildOption) (*BuildResult, error) {
	return runPipeline(ctx, p, true, opts)
}

// BuildFile runs Build on the project file at path, read once the project is locked (a build
// that waited for another one builds what that one left in opack.yaml).
func BuildFile(ctx context.Context, path string, opts ...BuildOption) (*BuildResult, error) {
	return runFile(ctx, path, false, opts)
}

// CheckFile runs Check on the project file at path, read once the project is locked.
func CheckFile(ctx context.Context, path string, opts ...BuildOption) (*BuildResult, error) {
	return runFile(ctx, path, true, opts)
}

func runFile(ctx context.Context, path string, check bool, opts []BuildOption) (*BuildResult, error) {
	o := newBuildOptions(opts)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, config.NoProject(path)
	}
	unlock, err := lockProject(ctx, filepath.Dir(path), !check, o.logf)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var key stepcache.Key
	cached := false
	if check && o.memo && o.cache != nil {
		if key, cached = o.checkKey(path); cached {
			if res, ok := o.cachedCheck(key); ok {
				o.logf("unchanged since a passing check: its result (opack check --no-cache runs every step)")
				return res, nil
			}
		}
	}
	p, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	res, err := runLocked(ctx, p, check, o)
	if cached && err == nil && !o.remote.Load() {
		o.keepCheck(key, res)
	}
	return res, err
}

func newBuildOptions(opts []BuildOption) *buildOptions {
	o := &buildOptions{git: config.ReadGitTags}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

func runPipeline(ctx context.Context, p *config.Project, check bool, opts []BuildOption) (*BuildResult, error) {
	o := newBuildOptions(opts)
	unlock, err := lockProject(ctx, p.Dir, !check, o.logf)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return runLocked(ctx, p, check, o)
}

// openStage prepares where the run stages its outputs: for check, a temporary folder (after
// refusing a half-applied build); for build, the transaction's folder (after finishing an
// interrupted one). done removes it (a committed transaction's is gone already).
func (r *run) openStage() (done func(), err error) {
	if r.check {
		if err := checkNoPending(r.p); err != nil {
			return nil, err
		}
		stage, err := tmpdir.Make("check")
		if err != nil {
			return nil, fmt.Errorf("creating a staging folder: %w", err)
		}
		r.stage = stage
		return func() { tmpdir.Remove(stage) }, nil
	}
	tx, err := r.beginTxn()
	if err != nil {
		return nil, err
	}
	r.tx, r.stage = tx, tx.Dir()
	return func() { tx.Abort() }, nil
}

// runLocked runs the pipeline on p; the caller holds the project lock.
func runLocked(ctx context.Context, p *config.Project, check bool, o *buildOptions) (*BuildResult, error) {
	if check {
		o.push = false
	}
	r := &run{p: p, o: o, check: check, res: &BuildResult{}}
	if p.Multi() {
		return r.runParts(ctx)
	}
	done, err := r.openStage()
	if err != nil {
		return r.res, err
	}
	defer done()
	if err := r.pipeline(ctx); err != nil {
		return r.res, err
	}
	return r.res, nil
}
