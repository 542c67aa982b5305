package check

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// catalogStream runs the checks of a catalog file by file while it loads (fbc.WithEachFile), so that
// memory follows the largest file being checked, not the catalog. When a file has parsed, its packages
// are converted and checked from that file alone (opm's checks, CRD safety on every edge, the graph
// checks), and only a summary of what the dependency checks need is kept; the file's blobs are then cut
// down to the names the findings' files are looked up by. A bundle's objects (its CRDs and CSV, most of
// the bytes of a catalog that embeds them) and its properties are dropped with them.
//
// A package checked from one file is checked as the whole catalog would check it when no other file
// holds a blob of it (the common layout, one folder per package). A package spread over several files is
// checked again at the end, on those files loaded again (reload). The dependency checks run at the end,
// on every package's summary. TestCRDStreamSameAsWhole and TestStreamSameAsWhole compare the findings
// with those of the checks run on the whole loaded catalog.
type catalogStream struct {
	o *validateOptions
	// reload loads the given files of the catalog again, objects included, for spread packages.
	reload func(files []string) (*fbc.DeclarativeConfig, error)

	checking     sync.Mutex // one file is checked at a time (its edges in parallel)
	mu           sync.Mutex
	files        map[string][]string        // package → files holding a blob of it
	results      map[string]*packageResults // package → what its file found
	deprecations []string                   // files holding an olm.deprecations blob
}

// packageResults are the findings of one package and its dependency summary.
type packageResults struct {
	problems []fbc.Problem
	findings []finding.Finding // of the CRD and graph checks
	deps     *depsSummary
}

func newCatalogStream(o *validateOptions, reload func(files []string) (*fbc.DeclarativeConfig, error)) *catalogStream {
	return &catalogStream{o: o, reload: reload, files: map[string][]string{}, results: map[string]*packageResults{}}
}

// file checks the packages of one parsed file and cuts its blobs down to their names.
func (s *catalogStream) file(ctx context.Context, path string, cfg *fbc.DeclarativeConfig) {
	pkgs := cfg.PackageNames()
	hasDeprecations := len(cfg.Deprecations) > 0
	s.checking.Lock()
	found := s.check(ctx, cfg, nil)
	s.checking.Unlock()
	keepNames(cfg)
	for pn := range found {
		pkgs[pn] = true // a finding about no package of the file's blobs ("") belongs to the file too
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if hasDeprecations {
		s.deprecations = append(s.deprecations, path)
	}
	for pn := range pkgs {
		s.files[pn] = append(s.files[pn], path)
		s.results[pn] = found[pn]
	}
}

// check runs the selected checks but the dependency closure on cfg and returns their results by package.
func (s *catalogStream) check(ctx context.Context, cfg *fbc.DeclarativeConfig, progress func(done, total int)) map[string]*packageResults {
	out := map[string]*packageResults{}
	of := func(pn string) *packageResults {
		if out[pn] == nil {
			out[pn] = &packageResults{}
		}
		return out[pn]
	}
	m, probs := fbc.Convert(cfg)
	for _, p := range append(probs, validateModel(m)...) {
		of(p.Pkg).problems = append(of(p.Pkg).problems, p)
	}
	g := graph.BuildGraph(m)
	var found []finding.Finding
	if s.o.on(CheckCRD) {
		found = append(found, checkCRDs(ctx, m, g, s.o.crds, progress, s.o.perEdge)...)
	}
	if s.o.on(CheckGraph) {
		found = append(found, checkGraph(m, g)...)
		found = append(found, checkStranded(m)...)
	}
	for _, f := range found {
		r := of(fbc.PackageOf(f.Object))
		r.findings = append(r.findings, f)
	}
	if s.o.on(CheckDeps) {
		for pn, d := range summarizeDeps(m, g) {
			of(pn).deps = d
		}
	}
	return out
}

// keepNames cuts cfg's blobs down to the names fbc.Sources records.
func keepNames(cfg *fbc.DeclarativeConfig) {
	for i, p := range cfg.Packages {
		cfg.Packages[i] = fbc.Package{Schema: p.Schema, Name: p.Name}
	}
	for i, c := range cfg.Channels {
		cfg.Channels[i] = fbc.Channel{Schema: c.Schema, Package: c.Package, Name: c.Name}
	}
	for i, b := range cfg.Bundles {
		cfg.Bundles[i] = fbc.Bundle{Schema: b.Schema, Package: b.Package, Name: b.Name}
	}
	cfg.Deprecations, cfg.Others = nil, nil
}

// report checks the packages spread over several files on those files loaded again, runs the
// dependency checks on every package's summary, and returns every finding as Validate orders them.
func (s *catalogStream) report(ctx context.Context) *finding.Report {
	o := s.o
	s.checkSpread(ctx)
	names := fbc.SortedKeys(s.results)
	r := &finding.Report{}
	var extra []finding.Finding
	sums := map[string]*depsSummary{}
	for _, pn := range names {
		res := s.results[pn]
		if res == nil {
			continue
		}
		if o.on(CheckOPM) {
			for _, p := range res.problems {
				f := finding.Errorf(o.fileOf(p.Pkg, p.Channel, p.Bundle), p.Object(), ruleOPM, "%s", p.Msg)
				f.Fix = p.Fix
				r.Add(f)
			}
		}
		extra = append(extra, res.findings...)
		if res.deps != nil {
			sums[pn] = res.deps
		}
	}
	if o.on(CheckDeps) {
		extra = append(extra, judgeDeps(sums, o.requireClosed)...)
	}
	for i := range extra {
		extra[i].File = o.fileOf(fbc.PackageOf(extra[i].Object), "", "")
	}
	finding.SortFindings(r.Findings)
	finding.SortFindings(extra)
	r.Add(extra...)
	return r
}

// checkSpread checks the packages whose blobs are in several files on those files, loaded again.
// The blobs without a package ("") count as spread when another file holds deprecations: opm names a
// deprecation without a package by its index among all the catalog's deprecations, so the files of
// every deprecation are loaded again with them, in the loader's order.
func (s *catalogStream) checkSpread(ctx context.Context) {
	var spread, files []string
	for _, pn := range fbc.SortedKeys(s.files) {
		fs := s.files[pn]
		if pn == "" && len(fs) == 1 && slices.ContainsFunc(s.deprecations, func(f string) bool { return f != fs[0] }) {
			fs = append(slices.Clone(fs), s.deprecations...)
		}
		if len(fs) > 1 {
			spread = append(spread, pn)
			files = append(files, fs...)
		}
	}
	if len(spread) > 0 && slices.Contains(spread, "") {
		files = append(files, s.deprecations...)
	}
	if len(spread) == 0 {
		return
	}
	cfg, err := s.reload(files)
	if err != nil {
		for _, pn := range spread {
			s.results[pn] = &packageResults{problems: []fbc.Problem{{Pkg: pn,
				Msg: fmt.Sprintf("reloading the files of package %q to check it (its blobs are in several files): %v", pn, err)}}}
		}
		return
	}
	found := s.check(ctx, cfg, s.o.progress)
	for _, pn := range spread {
		s.results[pn] = found[pn]
	}
}
