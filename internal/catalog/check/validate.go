package check

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"

	"github.com/opack/opack/internal/fbc"
)

// Check groups of catalog validation.
const (
	CheckOPM   = "opm"   // every check of opm validate (ConvertToModel + model validation)
	CheckCRD   = "crd"   // CRD upgrade safety on every replaces/skips/skipRange edge
	CheckDeps  = "deps"  // dependency closure of channel heads
	CheckGraph = "graph" // skipRange semantics, default channel head, skip-only bundles, stranded releases
)

// AllChecks lists the check groups in the order they run.
var AllChecks = []string{CheckOPM, CheckCRD, CheckDeps, CheckGraph}

// Rules of the findings, by check group.
const (
	ruleOPM   = "opm/validate"
	ruleLoad  = "opm/load"
	ruleCRD   = "catalog/crd-upgrade" // CRDs of an edge could not be read or checked; CRD findings have crd.Rule.ID
	ruleDeps  = "catalog/dependencies"
	ruleGraph = "catalog/graph"
	// ruleStranded: a release OLM v0 or OLM v1 never brings to its channel's head (check_stranded.go).
	ruleStranded = "catalog/stranded"
)

// ValidateOption configures Validate.
type ValidateOption func(*validateOptions)

type validateOptions struct {
	checks        map[string]bool
	requireClosed bool
	crds          CRDSource
	file          string
	sources       *fbc.Sources
	progress      func(done, total int)
	perEdge       bool
}

func newValidateOptions(opts []ValidateOption) *validateOptions {
	o := &validateOptions{crds: ObjectCRDs{}}
	for _, f := range opts {
		f(o)
	}
	return o
}

// on reports whether check group g runs.
func (o *validateOptions) on(g string) bool { return o.checks == nil || o.checks[g] }

// WithChecks selects the check groups (CheckOPM, CheckCRD, CheckDeps, CheckGraph); default all.
func WithChecks(groups ...string) ValidateOption {
	return func(o *validateOptions) {
		o.checks = map[string]bool{}
		for _, g := range groups {
			o.checks[g] = true
		}
	}
}

// WithRequireClosed makes a required API or package that no bundle of the catalog provides an
// error instead of a warning.
func WithRequireClosed(on bool) ValidateOption {
	return func(o *validateOptions) { o.requireClosed = on }
}

// WithCRDSource sets where the CRDs of a bundle come from for the crd checks (default: the
// bundle's olm.bundle.object properties only).
func WithCRDSource(s CRDSource) ValidateOption { return func(o *validateOptions) { o.crds = s } }

// WithPerEdge reports a CRD change once per upgrade edge that makes it, instead of once per
// package listing the edges.
func WithPerEdge(on bool) ValidateOption { return func(o *validateOptions) { o.perEdge = on } }

// WithEdgeProgress calls fn as upgrade edges are checked for CRD safety (done of total). With
// ValidateDir and ValidateRef, the edges of a package held in one file are checked while the
// catalog loads (fbc.WithProgress reports that); fn then sees only the packages spread over
// several files.
func WithEdgeProgress(fn func(done, total int)) ValidateOption {
	return func(o *validateOptions) { o.progress = fn }
}

// WithFile sets the File of every finding (the catalog as the user named it).
func WithFile(name string) ValidateOption { return func(o *validateOptions) { o.file = name } }

// ParseChecks reads a comma-separated list of check groups.
func ParseChecks(s string) ([]string, error) {
	var out []string
	for _, g := range strings.Split(s, ",") {
		g = strings.TrimSpace(g)
		if g == "" {
			continue
		}
		known := false
		for _, k := range AllChecks {
			known = known || k == g
		}
		if !known {
			return nil, fmt.Errorf("unknown check group %q (want %s)", g, strings.Join(AllChecks, ", "))
		}
		out = append(out, g)
	}
	return out, nil
}

// ValidateDir loads and validates the catalog below dir. Problems loading it (opm's load
// errors, one per bad file) are error findings; the error is only for a catalog that cannot
// be read at all.
func ValidateDir(ctx context.Context, dir string, lopts []fbc.LoadOption, opts ...ValidateOption) (*finding.Report, error) {
	return validateLoaded(ctx, dir, func(lopts ...fbc.LoadOption) (*fbc.DeclarativeConfig, error) { return fbc.LoadDir(ctx, dir, lopts...) }, lopts, opts)
}

// ValidateRef is ValidateDir for a folder or, when ref is not an existing path, a catalog image.
func ValidateRef(ctx context.Context, ref string, images image.Puller, lopts []fbc.LoadOption, opts ...ValidateOption) (*finding.Report, error) {
	return validateLoaded(ctx, ref, func(lopts ...fbc.LoadOption) (*fbc.DeclarativeConfig, error) {
		return fbc.LoadRef(ctx, ref, images, lopts...)
	}, lopts, opts)
}

// validateLoaded loads the catalog and validates it. The checks run file by file as the catalog loads
// (catalogStream), which then keeps no bundle's objects or properties.
func validateLoaded(ctx context.Context, dir string, load func(...fbc.LoadOption) (*fbc.DeclarativeConfig, error), lopts []fbc.LoadOption, opts []ValidateOption) (*finding.Report, error) {
	src := &fbc.Sources{}
	lopts = append([]fbc.LoadOption{fbc.WithoutPropertyValues(fbc.TypeCSVMetadata, fbc.TypeBundleObject), fbc.WithSources(src)}, lopts...)
	o := newValidateOptions(append([]ValidateOption{WithFile(dir)}, opts...))
	o.sources = src
	reload := func(files []string) (*fbc.DeclarativeConfig, error) {
		keep := map[string]bool{}
		for _, f := range files {
			keep[f] = true
		}
		return load(fbc.WithoutPropertyValues(fbc.TypeCSVMetadata, fbc.TypeBundleObject),
			fbc.WithOnlyFiles(func(f string) bool { return keep[f] }))
	}
	stream := newCatalogStream(o, reload)
	if _, err := load(append(lopts, fbc.WithEachFile(stream.file))...); err != nil {
		var le *fbc.LoadError
		if !errors.As(err, &le) {
			return nil, err
		}
		return loadReport(le, dir), nil
	}
	return stream.report(ctx), nil
}

func loadReport(le *fbc.LoadError, dir string) *finding.Report {
	r := &finding.Report{}
	for _, f := range le.Files {
		r.Add(finding.Errorf(joinPath(dir, f.Path), "", ruleLoad, "%s", f.Err.Error()))
	}
	return r
}

func joinPath(dir, file string) string {
	if dir == "" {
		return file
	}
	return strings.TrimSuffix(dir, "/") + "/" + file
}

// Validate runs the selected check groups on cfg and returns every finding in a stable order.
// opm's checks come first; the other groups run on the part of the catalog opm accepts. It is the
// checks ValidateDir runs file by file (catalogStream), run once on the whole catalog.
func Validate(ctx context.Context, cfg *fbc.DeclarativeConfig, opts ...ValidateOption) *finding.Report {
	s := newCatalogStream(newValidateOptions(opts), nil)
	s.results = s.check(ctx, cfg, s.o.progress)
	return s.report(ctx)
}

// fileOf names the file holding the blob a finding is about: the catalog (o.file) joined with
// the blob's file when the loader recorded it.
func (o *validateOptions) fileOf(pkg, channel, bundle string) string {
	if f := o.sources.File(pkg, channel, bundle); f != "" {
		return joinPath(o.file, f)
	}
	return o.file
}

// ConvertToModel builds the model of cfg and returns it with opm's problems (as findings).
// The model holds what opm would accept; callers use it for graph output.
func ConvertToModel(cfg *fbc.DeclarativeConfig) (*fbc.Model, []finding.Finding) {
	m, probs := fbc.Convert(cfg)
	probs = append(probs, validateModel(m)...)
	var fs []finding.Finding
	for _, p := range probs {
		f := finding.Errorf("", p.Object(), ruleOPM, "%s", p.Msg)
		f.Fix = p.Fix
		fs = append(fs, f)
	}
	return m, fs
}
