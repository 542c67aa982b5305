package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/finding"
)

// edgeGroup is one change and the edges of a package that make it.
type edgeGroup struct {
	item  edgeItem
	edges []*edgeCheck
	drops []*storedDrop // per edge, for stored-version drops
}

// edgeFindings turns the edges' changes into findings: one per change and package, listing the
// edges that make it (sorted), or with perEdge one per change and edge.
func edgeFindings(checked []*edgeCheck, perEdge bool) []finding.Finding {
	type groupKey struct{ pkg, item string }
	groups := map[groupKey]*edgeGroup{}
	var order []*edgeGroup
	for _, ec := range checked {
		for _, it := range ec.items {
			k := groupKey{ec.key.Package, string(it.sev) + "\x00" + it.key}
			if perEdge {
				k.pkg += "\x00" + ec.key.From + "\x00" + ec.key.To
			}
			g := groups[k]
			if g == nil {
				g = &edgeGroup{item: it}
				groups[k] = g
				order = append(order, g)
			}
			g.edges = append(g.edges, ec)
			g.drops = append(g.drops, it.drop)
		}
	}
	out := make([]finding.Finding, 0, len(order))
	for _, g := range order {
		out = append(out, g.finding())
	}
	return out
}

func (g *edgeGroup) finding() finding.Finding {
	sort.Sort(byEdge{g})
	first := g.edges[0].key
	text := g.item.text
	if g.item.drop != nil {
		text = g.dropText()
	}
	f := finding.Finding{Severity: g.item.sev, Semantic: g.item.semantic, Rule: g.item.ruleID(), Package: first.Package, CRD: g.item.crd, Version: g.item.version,
		Paths: g.item.paths, Old: g.item.old, New: g.item.new, Fix: g.item.fix, Actor: g.item.actor, Actors: g.item.actors}
	for _, ec := range g.edges {
		f.Edges = append(f.Edges, finding.Edge{From: ec.key.From, To: ec.key.To})
	}
	if len(g.edges) == 1 {
		f.Object = fmt.Sprintf("package %q edge %s -> %s", first.Package, first.From, first.To)
		f.Message = fmt.Sprintf("upgrade %s -> %s (%s): %s", first.From, first.To, strings.Join(g.edges[0].kinds, ", "), text)
		return f
	}
	names := make([]string, len(g.edges))
	for i, ec := range g.edges {
		names[i] = ec.key.From + " -> " + ec.key.To
	}
	f.Object = fmt.Sprintf("package %q", first.Package)
	f.Message = fmt.Sprintf("%d upgrade edges make the same change (%s): %s", len(g.edges), strings.Join(names, ", "), text)
	return f
}

// ruleID is the finding's rule id, the same in every command: crd-upgrade/<rule> (crd.Rule.ID).
func (it edgeItem) ruleID() string {
	if it.drop != nil {
		return crd.RuleStoredVersionRemoved.ID()
	}
	return it.rule.ID()
}

// dropText is the stored-version message naming the path that leads to each edge.
func (g *edgeGroup) dropText() string {
	d := *g.drops[0]
	paths := make([]string, 0, len(g.drops))
	for _, x := range g.drops {
		paths = append(paths, releasePath(x.path))
	}
	return d.messageAlong(strings.Join(paths, "; or along "))
}

// byEdge sorts a group's edges (and their drops) by From, then To.
type byEdge struct{ g *edgeGroup }

func (b byEdge) Len() int { return len(b.g.edges) }
func (b byEdge) Less(i, j int) bool {
	x, y := b.g.edges[i].key, b.g.edges[j].key
	if x.From != y.From {
		return x.From < y.From
	}
	return x.To < y.To
}
func (b byEdge) Swap(i, j int) {
	b.g.edges[i], b.g.edges[j] = b.g.edges[j], b.g.edges[i]
	b.g.drops[i], b.g.drops[j] = b.g.drops[j], b.g.drops[i]
}
