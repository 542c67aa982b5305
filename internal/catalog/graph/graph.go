package graph

import (
	"iter"
	"slices"
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
//
// Edges made by replaces and skips are listed one by one (they are as many as the catalog
// names). Edges made by a skipRange are not: a range can cover every earlier release, so n
// entries would make n²/2 pairs. Ranges holds each range once with the spans of the channel's
// version index it covers; All yields every edge, materializing one at a time.
type Graph struct {
	// Edges are the replaces edges.
	Edges []Edge
	// Skips are the skips edges, one record per channel entry, sharing the entry's list.
	Skips []SkipsEdges
	// Ranges are the skipRange edges, one per channel entry with a range that covers a bundle.
	Ranges []RangeEdges
	// Heads maps package → channel → head bundle name.
	Heads map[string]map[string]string
}

// RangeEdges is the skipRange edges of one channel entry: every bundle of Index[lo:hi] for
// each span is an edge From → To.
type RangeEdges struct {
	Package, Channel, To, SkipRange string
	// Index is the channel's bundles sorted by version (shared by the channel's ranges).
	Index []string
	Spans [][2]int32
}

// SkipsEdges is the skips edges of one channel entry: every bundle of From is an edge From → To.
type SkipsEdges struct {
	Package, Channel, To string
	From                 []string
}

// Count returns the number of edges r stands for.
func (r *RangeEdges) Count() int {
	n := 0
	for _, s := range r.Spans {
		n += int(s[1] - s[0])
	}
	return n
}

// Froms yields the bundles r's range covers, in version order.
func (r *RangeEdges) Froms() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, s := range r.Spans {
			for _, f := range r.Index[s[0]:s[1]] {
				if !yield(f) {
					return
				}
			}
		}
	}
}

// All yields every edge of g: the replaces edges, the skips edges, then the skipRange edges.
func (g *Graph) All() iter.Seq[Edge] {
	return func(yield func(Edge) bool) {
		for _, e := range g.Edges {
			if !yield(e) {
				return
			}
		}
		for _, sk := range g.Skips {
			for _, f := range sk.From {
				if !yield(Edge{Package: sk.Package, Channel: sk.Channel, From: f, To: sk.To, Kind: EdgeSkips}) {
					return
				}
			}
		}
		for i := range g.Ranges {
			r := &g.Ranges[i]
			for f := range r.Froms() {
				if !yield(Edge{Package: r.Package, Channel: r.Channel, From: f, To: r.To, Kind: EdgeSkipRange, SkipRange: r.SkipRange}) {
					return
				}
			}
		}
	}
}

// Len returns the number of edges All yields, without materializing them.
func (g *Graph) Len() int {
	n := len(g.Edges)
	for _, sk := range g.Skips {
		n += len(sk.From)
	}
	for i := range g.Ranges {
		n += g.Ranges[i].Count()
	}
	return n
}

// PackageLen returns the number of edges of package pkg.
func (g *Graph) PackageLen(pkg string) int {
	n := 0
	for _, e := range g.Edges {
		if e.Package == pkg {
			n++
		}
	}
	for _, sk := range g.Skips {
		if sk.Package == pkg {
			n += len(sk.From)
		}
	}
	for i := range g.Ranges {
		if g.Ranges[i].Package == pkg {
			n += g.Ranges[i].Count()
		}
	}
	return n
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
			edges, skips, ranges := channelEdges(p, c)
			g.Edges = append(g.Edges, edges...)
			g.Skips = append(g.Skips, skips...)
			g.Ranges = append(g.Ranges, ranges...)
		}
	}
	return g
}

func channelEdges(p *fbc.ModelPackage, c *fbc.ModelChannel) ([]Edge, []SkipsEdges, []RangeEdges) {
	var out []Edge
	var skips []SkipsEdges
	var ranges []RangeEdges
	var idx *versionIndex
	for _, e := range c.Entries {
		if p.Bundles[e.Name] == nil {
			continue
		}
		add := func(from string, kind EdgeKind) {
			if from != e.Name && p.Bundles[from] != nil {
				out = append(out, Edge{Package: p.Name, Channel: c.Name, From: from, To: e.Name, Kind: kind})
			}
		}
		if e.Replaces != "" {
			add(e.Replaces, EdgeReplaces)
		}
		if from := skipsFrom(p, e); len(from) > 0 {
			skips = append(skips, SkipsEdges{Package: p.Name, Channel: c.Name, To: e.Name, From: from})
		}
		if e.SkipRange == "" {
			continue
		}
		r, err := semver.ParseRange(e.SkipRange)
		if err != nil {
			continue
		}
		if idx == nil {
			idx = newVersionIndex(p, c)
		}
		if spans := idx.spans(r, e.Name); len(spans) > 0 {
			ranges = append(ranges, RangeEdges{Package: p.Name, Channel: c.Name, To: e.Name, SkipRange: e.SkipRange, Index: idx.names, Spans: spans})
		}
	}
	return out, skips, ranges
}

// skipsFrom returns the skips of e that are bundles of the package (not e itself): e.Skips
// itself when all are, so a long list is not copied.
func skipsFrom(p *fbc.ModelPackage, e fbc.ChannelEntry) []string {
	keep := func(s string) bool { return s != e.Name && p.Bundles[s] != nil }
	for i, s := range e.Skips {
		if keep(s) {
			continue
		}
		out := slices.Clone(e.Skips[:i])
		for _, s := range e.Skips[i+1:] {
			if keep(s) {
				out = append(out, s)
			}
		}
		return out
	}
	return e.Skips
}

// versionIndex is a channel's bundles sorted by version (then name): a semver range covers
// runs of it, so the bundles a skipRange skips are a few spans, whatever their number.
type versionIndex struct {
	names    []string
	versions []semver.Version
}

func newVersionIndex(p *fbc.ModelPackage, c *fbc.ModelChannel) *versionIndex {
	seen := map[string]bool{}
	x := &versionIndex{}
	for _, e := range c.Entries {
		if p.Bundles[e.Name] != nil && !seen[e.Name] {
			seen[e.Name] = true
			x.names = append(x.names, e.Name)
		}
	}
	sort.SliceStable(x.names, func(i, j int) bool {
		vi, vj := p.Bundles[x.names[i]].Version, p.Bundles[x.names[j]].Version
		if c := vi.Compare(vj); c != 0 {
			return c < 0
		}
		return x.names[i] < x.names[j]
	})
	x.versions = make([]semver.Version, len(x.names))
	for i, n := range x.names {
		x.versions[i] = p.Bundles[n].Version
	}
	return x
}

// spans returns the runs of the index r covers, leaving out self (no edge into itself).
func (x *versionIndex) spans(r semver.Range, self string) [][2]int32 {
	var out [][2]int32
	start := -1
	for i, v := range x.versions {
		in := x.names[i] != self && r(v)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, [2]int32{int32(start), int32(i)})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int32{int32(start), int32(len(x.versions))})
	}
	return out
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
	for e := range g.All() {
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
