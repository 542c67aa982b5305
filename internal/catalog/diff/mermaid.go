package diff

import (
	"fmt"
	"io"
	"strings"

	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/fbc"
)

// WriteMermaid draws, per changed package and channel, the upgrade edges of HEAD with the edges
// the change added (thick, green) and the ones it removed (dotted, red); bundles HEAD no longer
// holds are red.
func WriteMermaid(w io.Writer, r *Result) error {
	var b strings.Builder
	b.WriteString("%% opack catalog diff: added edges thick green, removed edges dotted red, removed bundles red\nflowchart LR\n")
	b.WriteString("  classDef removed fill:#fdd,stroke:#c00\n  classDef added fill:#dfd,stroke:#080\n")
	link := 0
	var added, removed []int
	node := 0
	for pi := range r.Packages {
		p := &r.Packages[pi]
		byChannel := map[string][][2]any{}
		for _, e := range p.keptEdges(maxMermaidKept) {
			byChannel[e.Channel] = append(byChannel[e.Channel], [2]any{e, "kept"})
		}
		for _, e := range p.EdgesAdded {
			byChannel[e.Channel] = append(byChannel[e.Channel], [2]any{e, "added"})
		}
		for _, e := range p.EdgesRemoved {
			byChannel[e.Channel] = append(byChannel[e.Channel], [2]any{e, "removed"})
		}
		for ci, cn := range fbc.SortedKeys(byChannel) {
			fmt.Fprintf(&b, "  subgraph p%dc%d[\"%s / %s\"]\n", pi, ci, escape.MermaidLabel(p.Name), escape.MermaidLabel(cn))
			ids := map[string]string{}
			id := func(name string) string {
				if ids[name] == "" {
					ids[name] = fmt.Sprintf("n%d", node)
					node++
					fmt.Fprintf(&b, "    %s[\"%s\"]\n", ids[name], escape.MermaidLabel(p.short(name)))
					switch {
					case contains(p.BundlesRemoved, name):
						fmt.Fprintf(&b, "    class %s removed\n", ids[name])
					case contains(p.BundlesAdded, name):
						fmt.Fprintf(&b, "    class %s added\n", ids[name])
					}
				}
				return ids[name]
			}
			for _, x := range byChannel[cn] {
				e, how := x[0].(Edge), x[1].(string)
				from, to := id(e.From), id(e.To)
				switch how {
				case "added":
					fmt.Fprintf(&b, "    %s ==>|%s| %s\n", from, e.Kind, to)
					added = append(added, link)
				case "removed":
					fmt.Fprintf(&b, "    %s -.->|%s removed| %s\n", from, e.Kind, to)
					removed = append(removed, link)
				default:
					fmt.Fprintf(&b, "    %s -->|%s| %s\n", from, e.Kind, to)
				}
				link++
			}
			b.WriteString("  end\n")
		}
	}
	if len(added) > 0 {
		fmt.Fprintf(&b, "  linkStyle %s stroke:#080,stroke-width:3px\n", joinInts(added))
	}
	if len(removed) > 0 {
		fmt.Fprintf(&b, "  linkStyle %s stroke:#c00,stroke-dasharray:4\n", joinInts(removed))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxMermaidKept bounds the unchanged edges a package's drawing shows: a channel of thousands of
// skipRanges has millions of edges, which no drawing can show.
const maxMermaidKept = 2_000

// keptEdges returns up to n of HEAD's edges of the package that the change did not add, sorted.
func (p *Package) keptEdges(n int) []Edge {
	if p.gHead == nil {
		return nil
	}
	added := map[Edge]bool{}
	for _, e := range p.EdgesAdded {
		added[e] = true
	}
	var out []Edge
	for e := range p.gHead.All() {
		if e.Package != p.Name {
			continue
		}
		x := Edge{Channel: e.Channel, From: e.From, To: e.To, Kind: string(e.Kind)}
		if added[x] {
			continue
		}
		if len(out) == n {
			break
		}
		out = append(out, x)
	}
	sortEdges(out)
	return out
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func joinInts(s []int) string {
	out := make([]string, len(s))
	for i, n := range s {
		out[i] = fmt.Sprint(n)
	}
	return strings.Join(out, ",")
}
