package diff

import (
	"bytes"
	"encoding/json"
	"slices"
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

func edgeChanges(gb, gh *graph.Graph, p string) (added, removed, kept []Edge) {
	set := func(g *graph.Graph) map[Edge]bool {
		out := map[Edge]bool{}
		for e := range g.All() {
			if e.Package == p {
				out[Edge{Channel: e.Channel, From: e.From, To: e.To, Kind: string(e.Kind)}] = true
			}
		}
		return out
	}
	bs, hs := set(gb), set(gh)
	for e := range hs {
		if !bs[e] {
			added = append(added, e)
		} else {
			kept = append(kept, e)
		}
	}
	for e := range bs {
		if !hs[e] {
			removed = append(removed, e)
		}
	}
	sortEdges(added)
	sortEdges(removed)
	sortEdges(kept)
	return added, removed, kept
}

func sortEdges(es []Edge) {
	slices.SortFunc(es, func(a, b Edge) int {
		return strings.Compare(a.Channel+"\x00"+a.To+"\x00"+a.From+"\x00"+a.Kind, b.Channel+"\x00"+b.To+"\x00"+b.From+"\x00"+b.Kind)
	})
}
