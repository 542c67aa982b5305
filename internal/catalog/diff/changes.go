package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/catalog/upgrades"
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

// upgradeChanges compares, for every release of every channel of BASE, where OLM v0 and OLM v1
// take it in BASE and in HEAD (a release HEAD no longer holds is followed as an installed
// release the catalog does not have). A release that reached the head and no longer does is
// newly stranded.
func upgradeChanges(bp, hp *fbc.ModelPackage, mBase, mHead *fbc.Model, p string, short func(string) string) ([]Stranded, []PathChange) {
	if bp == nil {
		return nil, nil
	}
	before, err := upgrades.Compute(mBase, upgrades.Request{Package: p})
	if err != nil {
		return nil, nil
	}
	var after *upgrades.Result
	if hp != nil {
		after, _ = upgrades.Compute(mHead, upgrades.Request{Package: p})
	}
	var stranded []Stranded
	var paths []PathChange
	for _, bc := range before.Channels {
		if bc.V0Error != "" || bc.Head == "" {
			continue // BASE could not resolve in this channel: nothing reached the head
		}
		var ac *upgrades.ChannelResult
		if after != nil {
			for i := range after.Channels {
				if after.Channels[i].Name == bc.Name {
					ac = &after.Channels[i]
				}
			}
		}
		for _, br := range bc.Releases {
			if br.Name == bc.Head {
				continue
			}
			ar, removed := afterRelease(mHead, p, bc.Name, ac, br)
			if ar == nil {
				if len(br.StrandedIn) == 0 && hp != nil {
					stranded = append(stranded, Stranded{Channel: bc.Name, Release: br.Name, Version: br.Version, Removed: removed,
						StrandedIn: []string{"v0", "v1"}, Why: fmt.Sprintf("channel %s is gone from package %s: a subscription to it gets no upgrade", bc.Name, p)})
				}
				continue
			}
			pc := PathChange{Channel: bc.Name, From: br.Name, Version: br.Version, Removed: removed,
				V0Before: nonNil(br.V0Path), V0After: nonNil(ar.V0Path), V0StopBefore: br.V0Stop, V0StopAfter: ar.V0Stop,
				V1Before: nonNil(br.V1Path), V1After: nonNil(ar.V1Path)}
			if !slices.Equal(pc.V0Before, pc.V0After) || !slices.Equal(pc.V1Before, pc.V1After) {
				paths = append(paths, pc)
			}
			if ac.Head == "" || ac.V0Error != "" {
				if len(br.StrandedIn) == 0 {
					stranded = append(stranded, Stranded{Channel: bc.Name, Release: br.Name, Version: br.Version, Removed: removed,
						StrandedIn: []string{"v0"}, Why: noHead(ac)})
				}
				continue
			}
			if in := newly(br.StrandedIn, ar.StrandedIn); len(in) > 0 {
				stranded = append(stranded, Stranded{Channel: bc.Name, Release: br.Name, Version: br.Version, Removed: removed,
					StrandedIn: in, Why: whyStranded(ar, ac, short)})
			}
		}
	}
	return stranded, paths
}

// noHead says why a channel of HEAD leaves every release where it is.
func noHead(c *upgrades.ChannelResult) string {
	if c.V0Error != "" {
		return "OLM v0 cannot resolve in the channel: " + c.V0Error
	}
	return "the channel has no single head"
}

// afterRelease finds release br of channel cn in HEAD; removed says HEAD no longer holds it.
func afterRelease(mHead *fbc.Model, p, cn string, ac *upgrades.ChannelResult, br upgrades.Release) (*upgrades.Release, bool) {
	if ac == nil {
		return nil, mHead.Packages[p] == nil || mHead.Packages[p].Bundles[br.Name] == nil
	}
	for i := range ac.Releases {
		if ac.Releases[i].Name == br.Name {
			return &ac.Releases[i], false
		}
	}
	res, err := upgrades.Compute(mHead, upgrades.Request{Package: p, Channel: cn, From: br.Name + "@" + br.Version})
	if err != nil || len(res.Channels) == 0 || len(res.Channels[0].Releases) == 0 {
		return nil, true
	}
	r := res.Channels[0].Releases[0]
	return &r, mHead.Packages[p].Bundles[br.Name] == nil
}

// newly returns the OLMs of after that are not in before.
func newly(before, after []string) []string {
	var out []string
	for _, a := range after {
		if !slices.Contains(before, a) {
			out = append(out, a)
		}
	}
	return out
}

// whyStranded says where each OLM leaves r now ("finds no upgrade" when it does not move).
func whyStranded(r *upgrades.Release, c *upgrades.ChannelResult, short func(string) string) string {
	var parts []string
	if slices.Contains(r.StrandedIn, "v0") {
		s := "OLM v0 finds no upgrade"
		if len(r.V0Path) > 0 {
			s = "OLM v0 stops at " + short(lastOr(r.V0Path, r.Name))
		}
		if r.V0Stop != upgrades.StopNoUpgrade {
			s += " (" + r.V0Stop + ")"
		}
		if r.V0Ignored != "" {
			s += ": " + r.V0Ignored
		}
		parts = append(parts, s)
	}
	if slices.Contains(r.StrandedIn, "v1") {
		s := "OLM v1 finds no upgrade"
		if len(r.V1Path) > 0 {
			s = "OLM v1 stops at " + short(lastOr(r.V1Path, r.Name))
		}
		if r.V1Passed != "" {
			s += ": " + r.V1Passed
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ") + " (head " + short(c.Head) + ")"
}

func lastOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[len(s)-1]
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
