package graph

import (
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/fbc"
)

// WriteDot writes the upgrade graph of m as a Graphviz digraph: one cluster per package and
// channel, one node per entry, one edge per replaces/skips/skipRange edge (unsafe ones red,
// labelled with the reason). Order is stable: packages, channels and entries as BuildGraph.
func WriteDot(m *fbc.Model, g *Graph, w io.Writer, o GraphOptions) error {
	var b strings.Builder
	b.WriteString("digraph catalog {\n  rankdir=LR;\n  node [shape=box];\n")
	for _, pn := range m.SortedPackages() {
		if o.Package != "" && pn != o.Package {
			continue
		}
		p := m.Packages[pn]
		fmt.Fprintf(&b, "  subgraph %s {\n    label=%s;\n", dotID("cluster_"+pn), dotID(pn))
		for _, cn := range p.SortedChannels() {
			c := p.Channels[cn]
			prefix := pn + "-" + cn + "-"
			fmt.Fprintf(&b, "    subgraph %s {\n      label=%s;\n", dotID("cluster_"+pn+"-"+cn), dotID(cn))
			for _, e := range c.Entries {
				attrs := "label=" + dotID(e.Name)
				if g.Heads[pn][cn] == e.Name {
					attrs += ", style=bold"
				}
				fmt.Fprintf(&b, "      %s [%s];\n", dotID(prefix+e.Name), attrs)
			}
			for _, e := range g.Edges {
				if e.Package != pn || e.Channel != cn {
					continue
				}
				label := string(e.Kind)
				if e.Kind == EdgeSkipRange {
					label += "(" + e.SkipRange + ")"
				}
				attrs := "label=" + dotID(label)
				if reason, ok := o.Unsafe[EdgeKey{pn, e.From, e.To}]; ok {
					attrs = "label=" + dotID(label+": "+reason) + ", color=red, fontcolor=red"
				}
				fmt.Fprintf(&b, "      %s -> %s [%s];\n", dotID(prefix+e.From), dotID(prefix+e.To), attrs)
			}
			b.WriteString("    }\n")
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dotID(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
