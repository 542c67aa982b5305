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

// checkDeps checks dependency closure: a channel head that stops providing an API that another
// package's head requires (error), and requirements no bundle of the catalog satisfies
// (warning, or error with requireClosed).
func checkDeps(m *fbc.Model, g *graph.Graph, requireClosed bool) []finding.Finding {
	var out []finding.Finding
	// Who provides what (every bundle), and what every head requires.
	provided := map[fbc.GVK][]string{}
	for _, pn := range m.SortedPackages() {
		for _, b := range m.Packages[pn].Bundles {
			for _, k := range b.Props.GVKs {
				provided[k] = append(provided[k], pn+"/"+b.Blob.Name)
			}
		}
	}
	type req struct{ pkg, bundle string }
	headReqs := map[fbc.GVK][]req{}
	headProvides := map[fbc.GVK]bool{}
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
		for _, cn := range p.SortedChannels() {
			h, ok := g.Heads[pn][cn]
			if !ok || p.Bundles[h] == nil {
				continue
			}
			for _, k := range p.Bundles[h].Props.GVKs {
				headProvides[k] = true
			}
			gvks, _ := requirements(p.Bundles[h])
			for _, k := range gvks {
				headReqs[k] = append(headReqs[k], req{pn, h})
			}
		}
	}
	preds := newPredecessors(g)
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
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
			for _, k := range sortedGVKs(dropped) {
				if headProvides[k] {
					continue // another head still provides it; OLM resolves to that one
				}
				for _, r := range headReqs[k] {
					if r.pkg == pn {
						continue
					}
					out = append(out, finding.Errorf("", fmt.Sprintf("package %q channel %q", pn, cn), ruleDeps,
						"head %s stops providing %s (provided by %s, which can upgrade to it), but %s (head of package %q) requires it: OLM would keep %s installed or fail to resolve; keep providing the API or update %s",
						h, k, dropped[k], r.bundle, r.pkg, dropped[k], r.pkg))
				}
			}
		}
	}
	out = append(out, closure(m, provided, requireClosed)...)
	return out
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
func closure(m *fbc.Model, provided map[fbc.GVK][]string, requireClosed bool) []finding.Finding {
	missingAPI := map[fbc.GVK][]string{}
	missingPkg := map[string][]string{}
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
		for _, bn := range fbc.SortedKeys(p.Bundles) {
			gvks, pkgs := requirements(p.Bundles[bn])
			for _, k := range gvks {
				if len(provided[k]) == 0 {
					missingAPI[k] = append(missingAPI[k], pn+"/"+bn)
				}
			}
			for _, r := range pkgs {
				if !packageSatisfied(m, r) {
					key := fmt.Sprintf("package %s in range %q", r.PackageName, r.VersionRange)
					missingPkg[key] = append(missingPkg[key], pn+"/"+bn)
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

func packageSatisfied(m *fbc.Model, r fbc.PackageRequired) bool {
	p := m.Packages[r.PackageName]
	if p == nil {
		return false
	}
	rng, err := semver.ParseRange(r.VersionRange)
	if err != nil {
		return false
	}
	for _, b := range p.Bundles {
		if rng(b.Version) {
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
