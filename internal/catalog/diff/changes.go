package diff

import (
	"bytes"
	"encoding/json"
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

func defaultChange(base, head *fbc.DeclarativeConfig, p string) *Change {
	get := func(cfg *fbc.DeclarativeConfig) string {
		for _, x := range cfg.Packages {
			if x.Name == p {
				return x.DefaultChannel
			}
		}
		return ""
	}
	if b, h := get(base), get(head); b != h {
		return &Change{Before: b, After: h}
	}
	return nil
}

func bundleChanges(base, head *fbc.DeclarativeConfig, p string) (added, removed, changed []string) {
	blobs := func(cfg *fbc.DeclarativeConfig) map[string][]byte {
		out := map[string][]byte{}
		for _, b := range cfg.Bundles {
			if b.Package == p {
				out[b.Name], _ = json.Marshal(b)
			}
		}
		return out
	}
	bb, hb := blobs(base), blobs(head)
	added, removed = addedRemoved(fbc.SortedKeys(bb), fbc.SortedKeys(hb))
	for _, n := range fbc.SortedKeys(hb) {
		if old, ok := bb[n]; ok && !bytes.Equal(old, hb[n]) {
			changed = append(changed, n)
		}
	}
	return added, removed, changed
}

// addedRemoved returns the names of after not in before and of before not in after (both sorted).
func addedRemoved(before, after []string) (added, removed []string) {
	for _, n := range after {
		if _, ok := slices.BinarySearch(before, n); !ok {
			added = append(added, n)
		}
	}
	for _, n := range before {
		if _, ok := slices.BinarySearch(after, n); !ok {
			removed = append(removed, n)
		}
	}
	return added, removed
}

func channelsOf(cfg *fbc.DeclarativeConfig, p string) map[string]*fbc.Channel {
	out := map[string]*fbc.Channel{}
	for i := range cfg.Channels {
		if c := &cfg.Channels[i]; c.Package == p {
			out[c.Name] = c
		}
	}
	return out
}

func headOf(c *fbc.Channel) string {
	if c == nil {
		return ""
	}
	if h, ok := graph.ChannelHead(c.Entries); ok {
		return h
	}
	return strings.Join(graph.Heads(c.Entries), ", ")
}

// channelChanges compares the channels both sides have (and the heads of all of them).
func channelChanges(base, head map[string]*fbc.Channel) ([]HeadMove, []EntryChange) {
	var heads []HeadMove
	var entries []EntryChange
	names := map[string]bool{}
	for n := range base {
		names[n] = true
	}
	for n := range head {
		names[n] = true
	}
	for _, cn := range fbc.SortedKeys(names) {
		b, h := base[cn], head[cn]
		if b == nil || h == nil {
			continue // channels added and removed are listed as such
		}
		if bh, hh := headOf(b), headOf(h); bh != hh {
			heads = append(heads, HeadMove{Channel: cn, Change: Change{Before: bh, After: hh}})
		}
		entries = append(entries, entryChanges(cn, b, h)...)
	}
	return heads, entries
}

func entryChanges(cn string, b, h *fbc.Channel) []EntryChange {
	index := func(c *fbc.Channel) map[string]fbc.ChannelEntry {
		out := map[string]fbc.ChannelEntry{}
		for _, e := range c.Entries {
			out[e.Name] = e
		}
		return out
	}
	bi, hi := index(b), index(h)
	all := map[string]bool{}
	for n := range bi {
		all[n] = true
	}
	for n := range hi {
		all[n] = true
	}
	var out []EntryChange
	add := func(bundle, field, before, after string) {
		if before != after {
			out = append(out, EntryChange{Channel: cn, Bundle: bundle, Field: field, Change: Change{Before: before, After: after}})
		}
	}
	for _, n := range fbc.SortedKeys(all) {
		be, bok := bi[n]
		he, hok := hi[n]
		if !bok || !hok {
			add(n, "entry", presence(bok), presence(hok))
			continue
		}
		add(n, "replaces", be.Replaces, he.Replaces)
		add(n, "skips", strings.Join(be.Skips, ", "), strings.Join(he.Skips, ", "))
		add(n, "skipRange", be.SkipRange, he.SkipRange)
	}
	return out
}

func presence(ok bool) string {
	if ok {
		return "present"
	}
	return "absent"
}

func deprecationChanges(base, head *fbc.DeclarativeConfig, p string) []Deprecation {
	msgs := func(cfg *fbc.DeclarativeConfig) map[string]string {
		out := map[string]string{}
		for _, d := range cfg.Deprecations {
			if d.Package != p {
				continue
			}
			for _, e := range d.Entries {
				out[referenceText(e.Reference)] = e.Message
			}
		}
		return out
	}
	bm, hm := msgs(base), msgs(head)
	all := map[string]bool{}
	for k := range bm {
		all[k] = true
	}
	for k := range hm {
		all[k] = true
	}
	var out []Deprecation
	for _, k := range fbc.SortedKeys(all) {
		if bm[k] != hm[k] {
			out = append(out, Deprecation{Reference: k, Change: Change{Before: bm[k], After: hm[k]}})
		}
	}
	return out
}

func referenceText(r fbc.PackageScopedReference) string {
	kind := strings.TrimPrefix(r.Schema, "olm.")
	if r.Name == "" {
		return kind
	}
	return kind + " " + r.Name
}

// maxEdgesListed bounds the edges a package's result lists as added and as removed: a change
// that adds more (a skipRange widened over thousands of releases) is counted in full and listed
// up to the bound (EdgesAddedTotal, EdgesRemovedTotal).
const maxEdgesListed = 10_000

// edgeChanges returns the upgrade edges of package p that HEAD adds and removes (listed up to
// maxEdgesListed, counted in full). Replaces and skips edges are compared one by one; a
// skipRange's edges are compared as the range: when an entry keeps its range, only bundles that
// joined or left the channel or changed version can join or leave its edges, so a channel of n
// ranges costs n times the bundles changed, never n².
func edgeChanges(gb, gh *graph.Graph, bp, hp *fbc.ModelPackage, p string) (added, removed []Edge, nAdded, nRemoved int) {
	list := func(out *[]Edge, n *int, e graph.Edge) {
		if *n++; len(*out) < maxEdgesListed {
			*out = append(*out, Edge{Channel: e.Channel, From: e.From, To: e.To, Kind: string(e.Kind)})
		}
	}
	be, he := explicitEdges(gb, p), explicitEdges(gh, p)
	for e := range he {
		if !be[e] {
			list(&added, &nAdded, e)
		}
	}
	for e := range be {
		if !he[e] {
			list(&removed, &nRemoved, e)
		}
	}
	br, hr := rangesOf(gb, p), rangesOf(gh, p)
	hd, bd := newRangeDiffer(hp, bp), newRangeDiffer(bp, hp)
	for k, h := range hr {
		for f := range hd.delta(h, br[k]) {
			list(&added, &nAdded, graph.Edge{Channel: h.Channel, From: f, To: h.To, Kind: graph.EdgeSkipRange})
		}
	}
	for k, b := range br {
		for f := range bd.delta(b, hr[k]) {
			list(&removed, &nRemoved, graph.Edge{Channel: b.Channel, From: f, To: b.To, Kind: graph.EdgeSkipRange})
		}
	}
	sortEdges(added)
	sortEdges(removed)
	return added, removed, nAdded, nRemoved
}

// explicitEdges are the replaces and skips edges of package p.
func explicitEdges(g *graph.Graph, p string) map[graph.Edge]bool {
	out := map[graph.Edge]bool{}
	for _, e := range g.Edges {
		if e.Package == p {
			out[e] = true
		}
	}
	for _, sk := range g.Skips {
		if sk.Package == p {
			for _, f := range sk.From {
				out[graph.Edge{Package: p, Channel: sk.Channel, From: f, To: sk.To, Kind: graph.EdgeSkips}] = true
			}
		}
	}
	return out
}

// rangesOf maps package p's skipRange edges by channel and entry.
func rangesOf(g *graph.Graph, p string) map[[2]string]*graph.RangeEdges {
	out := map[[2]string]*graph.RangeEdges{}
	for i := range g.Ranges {
		if r := &g.Ranges[i]; r.Package == p {
			out[[2]string{r.Channel, r.To}] = r
		}
	}
	return out
}

// rangeDiffer compares the skipRange edges of one side (mine) with the other's (theirs).
type rangeDiffer struct {
	mine, theirs *fbc.ModelPackage
	// per channel index (shared by the channel's ranges): positions in mine, positions in
	// theirs, and the bundles of mine that theirs lacks or holds at another version
	pos, theirPos map[*string]map[string]int
	changed       map[*string][]string
}

func newRangeDiffer(mine, theirs *fbc.ModelPackage) *rangeDiffer {
	return &rangeDiffer{mine: mine, theirs: theirs, pos: map[*string]map[string]int{}, theirPos: map[*string]map[string]int{}, changed: map[*string][]string{}}
}

// delta yields the bundles a (mine) covers that b (theirs, same channel and entry) does not.
func (d *rangeDiffer) delta(a, b *graph.RangeEdges) iter.Seq[string] {
	return func(yield func(string) bool) {
		if b == nil || a.SkipRange != b.SkipRange || len(a.Index) == 0 {
			var in map[string]bool
			if b != nil {
				in = map[string]bool{}
				for f := range b.Froms() {
					in[f] = true
				}
			}
			for f := range a.Froms() {
				if !in[f] && !yield(f) {
					return
				}
			}
			return
		}
		pos, theirPos, changed := d.channel(a.Index, b.Index)
		for _, f := range changed {
			j, ok := theirPos[f]
			if covers(a, pos[f]) && !(ok && covers(b, j)) && !yield(f) {
				return
			}
		}
	}
}

// channel indexes one channel's version index on both sides, once for all its ranges: with the
// same range, a bundle in both at the same version is covered on both sides or on neither.
func (d *rangeDiffer) channel(mine, theirs []string) (pos, theirPos map[string]int, changed []string) {
	k, tk := &mine[0], &theirs[0]
	if p, ok := d.pos[k]; ok && d.theirPos[tk] != nil {
		return p, d.theirPos[tk], d.changed[k]
	}
	pos, theirPos = indexPositions(mine), indexPositions(theirs)
	for _, f := range mine {
		_, ok := theirPos[f]
		mb, tb := d.mine.Bundles[f], d.theirs.Bundles[f]
		if !ok || tb == nil || mb == nil || !mb.Version.Equals(tb.Version) {
			changed = append(changed, f)
		}
	}
	d.pos[k], d.theirPos[tk], d.changed[k] = pos, theirPos, changed
	return pos, theirPos, changed
}

// indexPositions maps a channel's version index to positions.
func indexPositions(index []string) map[string]int {
	out := make(map[string]int, len(index))
	for i, n := range index {
		out[n] = i
	}
	return out
}

// covers reports whether r's spans include position i of its index.
func covers(r *graph.RangeEdges, i int) bool {
	k := sort.Search(len(r.Spans), func(k int) bool { return int(r.Spans[k][1]) > i })
	return k < len(r.Spans) && int(r.Spans[k][0]) <= i
}

func sortEdges(es []Edge) {
	slices.SortFunc(es, func(a, b Edge) int {
		return strings.Compare(a.Channel+"\x00"+a.To+"\x00"+a.From+"\x00"+a.Kind, b.Channel+"\x00"+b.To+"\x00"+b.From+"\x00"+b.Kind)
	})
}
