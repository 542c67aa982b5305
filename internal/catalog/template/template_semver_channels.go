package template

import (
	"fmt"
	"sort"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/fbc"
)

// highwater tracks the "most stable" channel created so far; it becomes the default channel.
type highwater struct {
	archetype string
	kind      string
	version   semver.Version
	name      string
}

// gt prefers a more stable archetype, then a higher version, then the preferred stream
// type, then minor over major.
func (h *highwater) gt(o *highwater, pref string) bool {
	if archetypePriority[h.archetype] != archetypePriority[o.archetype] {
		return archetypePriority[h.archetype] > archetypePriority[o.archetype]
	}
	if h.version.NE(o.version) {
		return h.version.GT(o.version)
	}
	if h.kind != o.kind {
		if h.kind == pref {
			return true
		}
		if o.kind == pref {
			return false
		}
		return streamPriorities[h.kind] > streamPriorities[o.kind]
	}
	return false
}

// entryTuple is one channel entry with what linking needs to know about it.
type entryTuple struct {
	arch    string
	kind    string
	parent  string
	name    string
	version semver.Version
	index   int
}

// generateChannels creates the major and/or minor channels of every archetype, in ascending
// version order, then links them.
func (g *semverGen) generateChannels(versions map[string]map[string]semver.Version) []fbc.Channel {
	hwc := highwater{archetype: archetypes[0]}
	channels := map[string]*fbc.Channel{}
	var tuples []entryTuple
	for _, arch := range archetypes {
		bundles := versions[arch]
		names := sortedNames(bundles)
		sort.SliceStable(names, func(i, j int) bool { return bundles[names[i]].LT(bundles[names[j]]) })
		for _, name := range names {
			v := bundles[name]
			var kinds []string
			if g.sv.GenerateMajorChannels {
				kinds = append(kinds, streamMajor)
			}
			if g.sv.GenerateMinorChannels {
				kinds = append(kinds, streamMinor)
			}
			for _, kind := range kinds {
				cName := fmt.Sprintf("%s-v%d", arch, v.Major)
				if kind == streamMinor {
					cName = fmt.Sprintf("%s-v%d.%d", arch, v.Major, v.Minor)
				}
				ch, ok := channels[cName]
				if !ok {
					ch = &fbc.Channel{Schema: fbc.SchemaChannel, Name: cName, Package: g.pkg, Entries: []fbc.ChannelEntry{}}
					channels[cName] = ch
					cand := highwater{archetype: arch, kind: kind, version: v, name: cName}
					if cand.gt(&hwc, g.sv.DefaultChannelTypePreference) {
						hwc = cand
					}
				}
				ch.Entries = append(ch.Entries, fbc.ChannelEntry{Name: name})
				tuples = append(tuples, entryTuple{arch: arch, kind: kind, parent: cName, name: name, version: v, index: len(ch.Entries) - 1})
			}
		}
	}
	g.defaultChannel = hwc.name
	return linkChannels(channels, tuples)
}

// linkChannels gives the head of each Y-stream its edges: it replaces the head of the
// previous minor version and skips every lower version of the same major seen so far.
func linkChannels(channels map[string]*fbc.Channel, entries []entryTuple) []fbc.Channel {
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if archetypePriority[a.arch] != archetypePriority[b.arch] {
			return archetypePriority[a.arch] < archetypePriority[b.arch]
		}
		if streamPriorities[a.kind] != streamPriorities[b.kind] {
			return streamPriorities[a.kind] < streamPriorities[b.kind]
		}
		return a.version.LT(b.version)
	})
	prevZMax := ""
	skips := map[string]bool{}
	setEdges := func(t entryTuple) {
		e := &channels[t.parent].Entries[t.index]
		e.Replaces = prevZMax
		var s []string
		for n := range skips {
			if n != e.Replaces {
				s = append(s, n)
			}
		}
		sort.Strings(s)
		if len(s) > 0 {
			e.Skips = s
		}
	}
	for i := 1; i < len(entries); i++ {
		prev, cur := entries[i-1], entries[i]
		archChange := cur.arch != prev.arch
		kindChange := cur.kind != prev.kind
		xChange := prev.version.Major != cur.version.Major
		yChange := xChange || prev.version.Minor != cur.version.Minor
		if archChange || kindChange || xChange || yChange {
			setEdges(prev)
		}
		if archChange || kindChange || xChange {
			skips = map[string]bool{}
			prevZMax = ""
		} else {
			if yChange {
				prevZMax = prev.name
			}
			skips[prev.name] = true
		}
	}
	if n := len(entries); n > 1 {
		last, pen := entries[n-1], entries[n-2]
		if last.arch == pen.arch && last.kind == pen.kind && last.version.Major == pen.version.Major {
			setEdges(last)
		}
	}
	out := make([]fbc.Channel, 0, len(channels))
	for _, ch := range channels {
		out = append(out, *ch)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
