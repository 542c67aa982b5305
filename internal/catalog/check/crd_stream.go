package check

import (
	"context"
	"fmt"
	"sync"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// crdStream runs the CRD checks of a catalog file by file while it loads (fbc.WithEachFile),
// so that memory follows the largest file being checked, not the catalog: a bundle's objects
// (its CRDs and CSV, most of the bytes of a catalog that embeds them) are dropped as soon as
// the packages of its file are checked. A package is checked from its file alone; that is
// the answer for the whole catalog when no other file holds a blob of the package (the
// common layout, one folder per package). A package spread over several files is checked
// again after loading, on those files loaded again with their objects (reload).
type crdStream struct {
	src     CRDSource
	perEdge bool
	// reload loads the given files of the catalog again, objects included, for spread packages.
	reload func(files []string) (*fbc.DeclarativeConfig, error)

	checking sync.Mutex // one file's CRDs are checked at a time (its edges in parallel)
	mu       sync.Mutex
	files    map[string][]string          // package → files holding a blob of it
	findings map[string][]finding.Finding // package → CRD findings, from its file
}

func newCRDStream(src CRDSource, perEdge bool, reload func(files []string) (*fbc.DeclarativeConfig, error)) *crdStream {
	return &crdStream{src: src, perEdge: perEdge, reload: reload, files: map[string][]string{}, findings: map[string][]finding.Finding{}}
}

// file checks the packages of one parsed file and drops its bundles' objects.
func (s *crdStream) file(ctx context.Context, path string, cfg *fbc.DeclarativeConfig) {
	pkgs := filePackages(cfg)
	s.checking.Lock()
	defer s.checking.Unlock()
	m, _ := fbc.Convert(cfg)
	g := graph.BuildGraph(m)
	found := map[string][]finding.Finding{}
	for _, f := range checkCRDs(ctx, m, g, s.src, nil, s.perEdge) {
		pn := fbc.PackageOf(f.Object)
		found[pn] = append(found[pn], f)
	}
	for i := range cfg.Bundles {
		cfg.Bundles[i].Objects, cfg.Bundles[i].CsvJSON = nil, ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for pn := range pkgs {
		s.files[pn] = append(s.files[pn], path)
		if fs := found[pn]; fs != nil {
			s.findings[pn] = fs
		}
	}
}

// filePackages is the set of packages a file holds a blob of.
func filePackages(cfg *fbc.DeclarativeConfig) map[string]bool {
	out := map[string]bool{}
	for _, p := range cfg.Packages {
		out[p.Name] = true
	}
	for _, c := range cfg.Channels {
		out[c.Package] = true
	}
	for _, b := range cfg.Bundles {
		out[b.Package] = true
	}
	for _, d := range cfg.Deprecations {
		out[d.Package] = true
	}
	for _, o := range cfg.Others {
		out[o.Package] = true
	}
	return out
}

// check returns the CRD findings of the packages of m: those checked from their one file, and
// those spread over several files checked on the reloaded catalog.
func (s *crdStream) check(ctx context.Context, m *fbc.Model, progress func(done, total int)) []finding.Finding {
	var out []finding.Finding
	spread := &fbc.Model{Packages: map[string]*fbc.ModelPackage{}}
	for _, pn := range m.SortedPackages() {
		if len(s.files[pn]) > 1 {
			spread.Packages[pn] = m.Packages[pn]
			continue
		}
		out = append(out, s.findings[pn]...)
	}
	if len(spread.Packages) == 0 {
		return out
	}
	return append(out, s.checkSpread(ctx, spread, progress)...)
}

// checkSpread checks the packages of spread on their files, loaded again with their objects.
func (s *crdStream) checkSpread(ctx context.Context, spread *fbc.Model, progress func(done, total int)) []finding.Finding {
	var files []string
	for pn := range spread.Packages {
		files = append(files, s.files[pn]...)
	}
	cfg, err := s.reload(files)
	if err != nil {
		var out []finding.Finding
		for _, pn := range spread.SortedPackages() {
			out = append(out, finding.Errorf("", fmt.Sprintf("package %q", pn), ruleCRD, "reloading the catalog to check the package's CRDs (its blobs are in several files): %v", err))
		}
		return out
	}
	full, _ := fbc.Convert(cfg)
	m := &fbc.Model{Packages: map[string]*fbc.ModelPackage{}}
	for pn := range spread.Packages {
		if p := full.Packages[pn]; p != nil {
			m.Packages[pn] = p
		}
	}
	return checkCRDs(ctx, m, graph.BuildGraph(m), s.src, progress, s.perEdge)
}
