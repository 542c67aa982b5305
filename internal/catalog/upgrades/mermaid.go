package upgrades

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/fbc"
)

// Mermaid styles: the steps OLM v0 takes, OLM v1's steps where they differ, stranded releases.
const (
	v0LinkStyle   = "stroke:#2E7D32,stroke-width:4px;"
	v1LinkStyle   = "stroke:#1565C0,stroke-width:2px,stroke-dasharray:4;"
	strandedClass = "classDef stranded fill:#FFCDD2,stroke:#C62828,stroke-width:2px"
)

// WriteMermaid draws each channel of each result: its upgrade edges (every replaces, skips and
// skipRange edge, one link per pair of releases), the steps OLM v0 takes from the releases of the
// result in thick green, OLM v1's steps that differ from them dashed blue, stranded releases red.
func WriteMermaid(w io.Writer, m *fbc.Model, results []*Result) error {
	var b strings.Builder
	b.WriteString("graph LR\n  %% thick green: the upgrades OLM v0 performs; dashed blue: OLM v1's where they differ; red: stranded releases\n  " + strandedClass + "\n")
	mw := &mermaidWriter{b: &b}
	for _, res := range results {
		p := m.Packages[res.Package]
		if p == nil {
			return fmt.Errorf("package %q is not in the catalog", res.Package)
		}
		g := graph.BuildGraph(&fbc.Model{Packages: map[string]*fbc.ModelPackage{p.Name: p}})
		fmt.Fprintf(&b, "  %%%% package \"%s\"\n", escape.MermaidLabel(p.Name))
		for ci := range res.Channels {
			mw.channel(g, p, &res.Channels[ci], mw.subgraphs)
			mw.subgraphs++
		}
	}
	if len(mw.stranded) > 0 {
		fmt.Fprintf(&b, "class %s stranded\n", strings.Join(mw.stranded, ","))
	}
	if len(mw.v0Links) > 0 {
		fmt.Fprintf(&b, "linkStyle %s %s\n", strings.Join(mw.v0Links, ","), v0LinkStyle)
	}
	if len(mw.v1Links) > 0 {
		fmt.Fprintf(&b, "linkStyle %s %s\n", strings.Join(mw.v1Links, ","), v1LinkStyle)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxDrawnEdges is the most edges of a package drawn one by one (as catalog graph draws them):
// above it, the skipRange edges no OLM takes are counted in a comment, not drawn.
const maxDrawnEdges = 100_000

type mermaidWriter struct {
	b                *strings.Builder
	link, subgraphs  int
	v0Links, v1Links []string
	stranded         []string
}

type pair struct{ from, to string }

func (mw *mermaidWriter) channel(g *graph.Graph, p *fbc.ModelPackage, c *ChannelResult, ci int) {
	ids := map[string]string{}
	id := func(name string) string {
		if s, ok := ids[name]; ok {
			return s
		}
		s := fmt.Sprintf("c%d_n%d", ci, len(ids))
		ids[name] = s
		return s
	}
	b := mw.b
	fmt.Fprintf(b, "  subgraph c%d[\"%s\"]\n", ci, escape.MermaidLabel(p.Name+" / "+c.Name))
	mc := p.Channels[c.Name]
	names := make([]string, 0, len(mc.Entries))
	for _, e := range mc.Entries {
		if p.Bundles[e.Name] != nil {
			names = append(names, e.Name)
		}
	}
	sort.SliceStable(names, func(i, j int) bool { return p.Bundles[names[i]].Version.GT(p.Bundles[names[j]].Version) })
	for _, n := range names {
		fmt.Fprintf(b, "    %s[\"%s\"]\n", id(n), label(n, p.Bundles[n].Version.String(), n == c.Head))
	}
	for _, r := range c.Releases {
		switch {
		case r.NotInCatalog:
			fmt.Fprintf(b, "    %s[\"%s\"]\n", id(displayRelease(&r)), label(displayRelease(&r), r.Version+" not in catalog", false))
		case r.NotInChannel:
			fmt.Fprintf(b, "    %s[\"%s\"]\n", id(displayRelease(&r)), label(displayRelease(&r), r.Version+" not in this channel", false))
		}
	}
	v0, v1 := steps(c)
	kinds := map[pair][]string{}
	var order []pair
	ranged := g.PackageLen(p.Name) > maxDrawnEdges // draw a skipRange's edges only where an OLM steps
	left := 0
	for e := range g.All() {
		if e.Channel != c.Name {
			continue
		}
		if ranged && e.Kind == graph.EdgeSkipRange && !v0[pair{e.From, e.To}] && !v1[pair{e.From, e.To}] {
			left++
			continue
		}
		k := pair{e.From, e.To}
		if _, ok := kinds[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(kinds[k], string(e.Kind)) {
			kinds[k] = append(kinds[k], string(e.Kind))
		}
	}
	for _, steps := range []map[pair]bool{v0, v1} {
		for k := range steps {
			if _, ok := kinds[k]; !ok {
				order = append(order, k) // from a release not in the catalog
				kinds[k] = []string{"upgrade"}
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].from != order[j].from {
			return order[i].from < order[j].from
		}
		return order[i].to < order[j].to
	})
	for _, k := range order {
		fmt.Fprintf(b, "    %s -- %s --> %s\n", id(k.from), strings.Join(kinds[k], ","), id(k.to))
		switch {
		case v0[k]:
			mw.v0Links = append(mw.v0Links, fmt.Sprint(mw.link))
		case v1[k]:
			mw.v1Links = append(mw.v1Links, fmt.Sprint(mw.link))
		}
		mw.link++
	}
	if left > 0 {
		fmt.Fprintf(b, "    %%%% %d skipRange edges not drawn (the package has more than %d edges): only those an OLM takes\n", left, maxDrawnEdges)
	}
	b.WriteString("  end\n")
	for _, s := range c.Stranded {
		mw.stranded = append(mw.stranded, id(s))
	}
}

// steps returns the single upgrades OLM v0 and OLM v1 take along the paths of c's releases.
func steps(c *ChannelResult) (v0, v1 map[pair]bool) {
	v0, v1 = map[pair]bool{}, map[pair]bool{}
	for _, r := range c.Releases {
		for _, s := range pathSteps(displayRelease(&r), r.V0Path, r.V0Elided) {
			v0[s] = true
		}
		for _, s := range pathSteps(displayRelease(&r), r.V1Path, r.V1Elided) {
			v1[s] = true
		}
	}
	return v0, v1
}

// pathSteps are the single upgrades of a path from from (none across the releases an elided
// path leaves out: every step is the first of the path of the release it starts from).
func pathSteps(from string, path []string, elided int) []pair {
	var out []pair
	prev := from
	for i, n := range path {
		if elided > 0 && i == len(path)-1 {
			break
		}
		out = append(out, pair{prev, n})
		prev = n
	}
	return out
}

// label is a node's label: its name and version (escape.MermaidLabel each), lines broken with <br>.
func label(name, version string, head bool) string {
	s := escape.MermaidLabel(name) + "<br>" + escape.MermaidLabel(version)
	if head {
		s += "<br>(head)"
	}
	return s
}
