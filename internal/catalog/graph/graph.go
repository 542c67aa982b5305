package graph

import (
	"sort"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/fbc"
)

// EdgeKind says which channel-entry field made an upgrade edge.
type EdgeKind string

// Edge kinds.
const (
	EdgeReplaces  EdgeKind = "replaces"
	EdgeSkips     EdgeKind = "skips"
	EdgeSkipRange EdgeKind = "skipRange"
)

// Edge is one upgrade path: a subscription on From may upgrade to To (the entry declaring it).
type Edge struct {
	Package string
	Channel string
	From    string
	To      string
	Kind    EdgeKind
	// SkipRange is the range of a skipRange edge.
	SkipRange string
}

// Graph is the upgrade graph of a model: every edge whose both ends are bundles of the
// package, and the head of each channel that has exactly one.
type Graph struct {
	Edges []Edge
	// Heads maps package → channel → head bundle name.
	Heads map[string]map[string]string
}

// BuildGraph computes the edges of every channel of m, in a stable order (packages and
// channels by name, entries in channel order; replaces, then skips, then skipRange).
func BuildGraph(m *fbc.Model) *Graph {
	g := &Graph{Heads: map[string]map[string]string{}}
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
		g.Heads[pn] = map[string]string{}
		for _, cn := range p.SortedChannels() {
			c := p.Channels[cn]
			if h, ok := ChannelHead(c.Entries); ok {
				g.Heads[pn][cn] = h
			}
			g.Edges = append(g.Edges, channelEdges(p, c)...)
		}
	}
	return g
}

func channelEdges(p *fbc.ModelPackage, c *fbc.ModelChannel) []Edge {
	var out []Edge
	for _, e := range c.Entries {
		if p.Bundles[e.Name] == nil {
			continue
		}
		add := func(from string, kind EdgeKind) {
			if from != e.Name && p.Bundles[from] != nil {
				out = append(out, Edge{Package: p.Name, Channel: c.Name, From: from, To: e.Name, Kind: kind, SkipRange: rangeIf(kind, e.SkipRange)})
			}
		}
		if e.Replaces != "" {
			add(e.Replaces, EdgeReplaces)
		}
		for _, s := range e.Skips {
			add(s, EdgeSkips)
		}
		if e.SkipRange == "" {
			continue
		}
		r, err := semver.ParseRange(e.SkipRange)
		if err != nil {
			continue
		}
		for _, other := range c.Entries {
			if b := p.Bundles[other.Name]; b != nil && r(b.Version) {
				add(other.Name, EdgeSkipRange)
			}
		}
	}
	return out
}

func rangeIf(k EdgeKind, r string) string {
	if k == EdgeSkipRange {
		return r
	}
	return ""
}

// ChannelHead returns the one entry nothing replaces or skips.
func ChannelHead(entries []fbc.ChannelEntry) (string, bool) {
	heads := Heads(entries)
	if len(heads) != 1 {
		return "", false
	}
	return heads[0], true
}

// Heads returns the entries no other entry of the channel replaces or skips, sorted: a channel
// opm accepts has exactly one.
func Heads(entries []fbc.ChannelEntry) []string {
	incoming := map[string]bool{}
	for _, e := range entries {
		if e.Replaces != "" {
			incoming[e.Replaces] = true
		}
		for _, s := range e.Skips {
			incoming[s] = true
		}
	}
	var heads []string
	for _, e := range entries {
		if !incoming[e.Name] {
			heads = append(heads, e.Name)
		}
	}
	sort.Strings(heads)
	return heads
}

// Predecessors returns, for package pkg, every bundle with a path into name (not name itself), sorted.
func (g *Graph) Predecessors(pkg, name string) []string {
	into := map[string][]string{}
	for _, e := range g.Edges {
		if e.Package == pkg {
			into[e.To] = append(into[e.To], e.From)
		}
	}
	seen := map[string]bool{name: true}
	stack := []string{name}
	var out []string
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range into[cur] {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
				stack = append(stack, f)
			}
		}
	}
	sort.Strings(out)
	return out
}

// EdgeKey identifies an upgrade edge of a package regardless of channel and kind.
type EdgeKey struct {
	Package, From, To string
}
