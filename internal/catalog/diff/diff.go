package diff

import (
	"context"
	"errors"
	"fmt"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
)

// Rules of the findings diff adds to those of catalog/check. A release that loses its upgrades is
// stranded by accident when the change cuts it out of a channel that goes on (an entry removed from
// a live channel, the head removed): an error. A whole channel or package removed is deliberate: a
// warning, the same for both (clusters subscribed to it get no more upgrades, and nothing told their
// users), or info when BASE had already deprecated it (olm.deprecations): the deprecation told them.
const (
	// RuleNewlyStranded: a release that OLM v0 or OLM v1 brought to its channel's head in BASE
	// no longer gets there in HEAD, and its channel goes on (error: an accidental strand).
	RuleNewlyStranded = "catalog/newly-stranded"
	// RuleChannelRemoved: HEAD no longer has a channel BASE had, in a package it keeps (a
	// deliberate removal: warning, info when BASE deprecated the channel or its package).
	RuleChannelRemoved = "catalog/channel-removed"
	// RulePackageRemoved: HEAD no longer has a package BASE had (a deliberate removal: warning,
	// info when BASE deprecated it).
	RulePackageRemoved = "catalog/package-removed"
)

// Result is the comparison of two catalogs: the packages whose blobs differ, what changed in
// each and what it means for installed releases, and the findings (errors fail a pull request).
type Result struct {
	Base string `json:"base"`
	Head string `json:"head"`
	// ChangedFiles are the catalog files added, removed or modified (below the catalog folder).
	ChangedFiles []string `json:"changedFiles"`
	// UnchangedFiles is how many files are identical on both sides (hashed, not decoded).
	UnchangedFiles int       `json:"unchangedFiles"`
	Packages       []Package `json:"packages"`
	// Findings are every finding of every package, errors first.
	Findings []finding.Finding `json:"findings"`
}

// Passed reports whether the result holds no error finding.
func (r *Result) Passed() bool { return r.Report().Passed() }

// Report returns the findings as a report.
func (r *Result) Report() *finding.Report { return &finding.Report{Findings: r.Findings} }

// Option configures Diff.
type Option func(*options)

type options struct {
	images image.Puller
	crds   check.CRDSource
	dir    string
	// headName names HEAD's folder in findings ("" : as given); keep filters both sides' files.
	headName string
	keep     func(file string) bool
}

// WithPuller sets how BASE and HEAD images are read (default image.NewPuller()).
func WithPuller(p image.Puller) Option { return func(o *options) { o.images = p } }

// WithCRDSource sets where the CRDs of bundles come from for the CRD checks of new edges
// (default: olm.bundle.object properties).
func WithCRDSource(s check.CRDSource) Option { return func(o *options) { o.crds = s } }

// WithDir sets the folder a git:REV:PATH is looked up from (its repository; default ".").
func WithDir(dir string) Option { return func(o *options) { o.dir = dir } }

// WithHeadName names HEAD's folder in findings and file names (for a HEAD staged elsewhere).
func WithHeadName(name string) Option { return func(o *options) { o.headName = name } }

// WithFiles compares only the files (slash paths below each catalog) for which keep is true.
func WithFiles(keep func(file string) bool) Option { return func(o *options) { o.keep = keep } }

// Diff compares the catalogs base and head (folders, catalog images or git:REV:PATH). Files
// identical on both sides are hashed and, unless they name a package of a changed file, never
// decoded. A HEAD file opm cannot load is an opm/load error finding.
func Diff(ctx context.Context, base, head string, opts ...Option) (*Result, error) {
	o := options{dir: ".", crds: check.ObjectCRDs{}}
	for _, f := range opts {
		f(&o)
	}
	bs, err := openSide(ctx, base, o.dir, o.images)
	if err != nil {
		return nil, fmt.Errorf("reading BASE: %w", err)
	}
	defer bs.cleanup()
	hs, err := openSide(ctx, head, o.dir, o.images)
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	defer hs.cleanup()
	if o.headName != "" {
		hs.prefix = o.headName
	}
	if o.keep != nil {
		bs.filter(o.keep)
		hs.filter(o.keep)
	}
	r := &Result{Base: base, Head: head, Packages: []Package{}, Findings: []finding.Finding{}}
	l, err := load(ctx, bs, hs)
	var hl *headLoadError
	if errors.As(err, &hl) {
		r.ChangedFiles, _ = changedFiles(bs, hs)
		r.Findings = loadFindings(hs, hl.err)
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	r.ChangedFiles, r.UnchangedFiles = l.changedFiles, l.unchangedFiles
	if r.ChangedFiles == nil {
		r.ChangedFiles = []string{}
	}
	a := newAnalysis(ctx, l, hs, o)
	for _, p := range l.touched {
		r.Packages = append(r.Packages, a.pkg(p))
	}
	r.Findings = a.findings()
	for _, b := range l.baseBroken {
		r.Findings = append(r.Findings, finding.Finding{Severity: finding.SeverityInfo, File: base, Rule: "opm/load",
			Message: "BASE file does not load, compared as absent: " + b})
	}
	return r, ctx.Err()
}

// loadFindings turns opm's load errors of HEAD files into findings on those files.
func loadFindings(hs *side, err error) []finding.Finding {
	var le *fbc.LoadError
	if !errors.As(err, &le) {
		return []finding.Finding{finding.Errorf(hs.arg, "", "opm/load", "%s", err.Error())}
	}
	var out []finding.Finding
	for _, f := range le.Files {
		out = append(out, finding.Errorf(hs.file(f.Path), "", "opm/load", "%s", f.Err.Error()))
	}
	return out
}
