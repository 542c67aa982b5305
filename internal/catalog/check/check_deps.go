package check

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/finding"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

func checkCRDs(ctx context.Context, m *fbc.Model, g *graph.Graph, src CRDSource, progress func(done, total int), perEdge bool) []finding.Finding {
	fs, _ := checkEdges(ctx, m, g, src, progress, perEdge)
	return fs
}

// requirements lists what a bundle requires: APIs (olm.gvk.required and gvk constraints) and
// packages (olm.package.required and package constraints).
func requirements(b *fbc.ModelBundle) ([]fbc.GVK, []fbc.PackageRequired) {
	gvks := append([]fbc.GVK(nil), b.Props.GVKsRequired...)
	pkgs := append([]fbc.PackageRequired(nil), b.Props.PackagesRequired...)
	for _, p := range b.Props.Others {
		if p.Type != fbc.TypeConstraint {
			continue
		}
		var c fbc.Constraint
		if json.Unmarshal(p.Value, &c) != nil {
			continue
		}
		if c.GVK != nil {
			gvks = append(gvks, *c.GVK)
		}
		if c.Package != nil {
			pkgs = append(pkgs, *c.Package)
		}
	}
	return gvks, pkgs
}

// The dependency checks: a channel head that stops providing an API that another package's head
// requires (error), and requirements no bundle of the catalog satisfies (warning, or error with
// requireClosed). They run in two steps, so that a catalog checked file by file keeps only a summary
// per package: summarizeDeps, then judgeDeps on every package's summary.

// depsSummary is what the dependency checks need of one package: the APIs its bundles provide,
// their versions and requirements, and its channel heads with what they provide, require and stop
// providing. It is small, so a catalog checked file by file keeps one per package instead of the
// package (catalogStream).
type depsSummary struct {
	provides map[fbc.GVK]bool // by any bundle of the package
	versions []semver.Version
	heads    []depsHead   // by channel name
	reqs     []bundleReqs // by bundle name; bundles without requirements left out
}

// depsHead is the head of one channel.
type depsHead struct {
	channel, bundle    string
	provides, requires []fbc.GVK
	dropped            map[fbc.GVK]string // API a predecessor provided and the head does not → that predecessor
}

type bundleReqs struct {
	bundle string
	gvks   []fbc.GVK
	pkgs   []fbc.PackageRequired
}

// summarizeDeps summarizes every package of m.
func summarizeDeps(m *fbc.Model, g *graph.Graph) map[string]*depsSummary {
	preds := newPredecessors(g)
	out := map[string]*depsSummary{}
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
		s := &depsSummary{provides: map[fbc.GVK]bool{}}
		for _, bn := range fbc.SortedKeys(p.Bundles) {
			b := p.Bundles[bn]
			for _, k := range b.Props.GVKs {
				s.provides[k] = true
			}
			s.versions = append(s.versions, b.Version)
			if gvks, pkgs := requirements(b); len(gvks)+len(pkgs) > 0 {
				s.reqs = append(s.reqs, bundleReqs{bundle: bn, gvks: gvks, pkgs: pkgs})
			}
		}
		for _, cn := range p.SortedChannels() {
			h, ok := g.Heads[pn][cn]
			if !ok || p.Bundles[h] == nil {
				continue
			}
			has := map[fbc.GVK]bool{}
			for _, k := range p.Bundles[h].Props.GVKs {
				has[k] = true
			}
			dropped := map[fbc.GVK]string{}
			for _, prev := range preds.all(pn, h) {
				if b := p.Bundles[prev]; b != nil && prev != h {
					for _, k := range b.Props.GVKs {
						if !has[k] && dropped[k] == "" {
							dropped[k] = prev
						}
					}
				}
			}
			gvks, _ := requirements(p.Bundles[h])
			s.heads = append(s.heads, depsHead{channel: cn, bundle: h, provides: p.Bundles[h].Props.GVKs, requires: gvks, dropped: dropped})
		}
		out[pn] = s
	}
	return out
}

// judgeDeps runs the dependency checks on the summaries of every package of a catalog.
func judgeDeps(sums map[string]*depsSummary, requireClosed bool) []finding.Finding {
	var out []finding.Finding
	type req struct{ pkg, bundle string }
	headReqs := map[fbc.GVK][]req{}
	headProvides := map[fbc.GVK]bool{}
	names := fbc.SortedKeys(sums)
	for _, pn := range names {
		for _, h := range sums[pn].heads {
			for _, k := range h.provides {
				headProvides[k] = true
			}
			for _, k := range h.requires {
				headReqs[k] = append(headReqs[k], req{pn, h.bundle})
			}
		}
	}
	for _, pn := range names {
		for _, h := range sums[pn].heads {
			for _, k := range sortedGVKs(h.dropped) {
				if headProvides[k] {
					continue // another head still provides it; OLM resolves to that one
				}
				for _, r := range headReqs[k] {
					if r.pkg == pn {
						continue
					}
					out = append(out, finding.Errorf("", fmt.Sprintf("package %q channel %q", pn, h.channel), ruleDeps,
						"head %s stops providing %s (provided by %s, which can upgrade to it), but %s (head of package %q) requires it: OLM would keep %s installed or fail to resolve; keep providing the API or update %s",
						h.bundle, k, h.dropped[k], r.bundle, r.pkg, h.dropped[k], r.pkg))
				}
			}
		}
	}
	return append(out, closure(sums, names, requireClosed)...)
}

func sortedGVKs[V any](m map[fbc.GVK]V) []fbc.GVK {
	out := make([]fbc.GVK, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// closure reports requirements that no bundle of the catalog satisfies.
func closure(sums map[string]*depsSummary, names []string, requireClosed bool) []finding.Finding {
	provided := map[fbc.GVK]bool{}
	for _, s := range sums {
		for k := range s.provides {
			provided[k] = true
		}
	}
	missingAPI := map[fbc.GVK][]string{}
	missingPkg := map[string][]string{}
	for _, pn := range names {
		for _, b := range sums[pn].reqs {
			for _, k := range b.gvks {
				if !provided[k] {
					missingAPI[k] = append(missingAPI[k], pn+"/"+b.bundle)
				}
			}
			for _, r := range b.pkgs {
				if !packageSatisfied(sums[r.PackageName], r) {
					key := fmt.Sprintf("package %s in range %q", r.PackageName, r.VersionRange)
					missingPkg[key] = append(missingPkg[key], pn+"/"+b.bundle)
				}
			}
		}
	}
	sev := finding.SeverityWarning
	if requireClosed {
		sev = finding.SeverityError
	}
	var out []finding.Finding
	for _, k := range sortedGVKs(missingAPI) {
		out = append(out, finding.Finding{Severity: sev, Rule: ruleDeps, Object: "API " + k.String(),
			Message: fmt.Sprintf("required by %s but provided by no bundle of this catalog: it must come from another catalog", listSome(missingAPI[k]))})
	}
	for _, k := range fbc.SortedKeys(missingPkg) {
		out = append(out, finding.Finding{Severity: sev, Rule: ruleDeps, Object: k,
			Message: fmt.Sprintf("required by %s but no bundle of this catalog satisfies it: it must come from another catalog", listSome(missingPkg[k]))})
	}
	return out
}

// packageSatisfied reports whether a bundle of the package summarized by s (nil: not in the
// catalog) has a version in r's range.
func packageSatisfied(s *depsSummary, r fbc.PackageRequired) bool {
	if s == nil {
		return false
	}
	rng, err := semver.ParseRange(r.VersionRange)
	if err != nil {
		return false
	}
	for _, v := range s.versions {
		if rng(v) {
			return true
		}
	}
	return false
}

func listSome(names []string) string {
	sort.Strings(names)
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}

// predecessors indexes the edges of a graph by target: replaces and skips edges one by one,
// skipRange edges as their ranges (never expanded into pairs).
type predecessors struct {
	into   map[string]map[string][]string            // package → to → froms
	ranges map[string]map[string][]*graph.RangeEdges // package → to → ranges
}

func newPredecessors(g *graph.Graph) *predecessors {
	p := &predecessors{into: map[string]map[string][]string{}, ranges: map[string]map[string][]*graph.RangeEdges{}}
	for _, e := range g.Edges {
		if p.into[e.Package] == nil {
			p.into[e.Package] = map[string][]string{}
		}
		p.into[e.Package][e.To] = append(p.into[e.Package][e.To], e.From)
	}
	for _, sk := range g.Skips {
		if p.into[sk.Package] == nil {
			p.into[sk.Package] = map[string][]string{}
		}
		p.into[sk.Package][sk.To] = append(p.into[sk.Package][sk.To], sk.From...)
	}
	for i := range g.Ranges {
		r := &g.Ranges[i]
		if p.ranges[r.Package] == nil {
			p.ranges[r.Package] = map[string][]*graph.RangeEdges{}
		}
		p.ranges[r.Package][r.To] = append(p.ranges[r.Package][r.To], r)
	}
	return p
}

// all returns name and every bundle with a path into it, sorted.
func (p *predecessors) all(pkg, name string) []string {
	seen := map[string]bool{name: true}
	stack := []string{name}
	visit := func(f string) {
		if !seen[f] {
			seen[f] = true
			stack = append(stack, f)
		}
	}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range p.into[pkg][cur] {
			visit(f)
		}
		for _, r := range p.ranges[pkg][cur] {
			for f := range r.Froms() {
				visit(f)
			}
		}
	}
	out := fbc.SortedKeys(seen)
	sort.Strings(out)
	return out
}
