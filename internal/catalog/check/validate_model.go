package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// validateModel runs opm's model.Validate checks on every package, channel and bundle and
// returns all problems (opm nests them under "invalid index"; each problem keeps its path).
func validateModel(m *fbc.Model) []fbc.Problem {
	var probs []fbc.Problem
	for _, pn := range m.SortedPackages() {
		probs = append(probs, validatePackage(m.Packages[pn])...)
	}
	return probs
}

func validatePackage(p *fbc.ModelPackage) []fbc.Problem {
	var probs []fbc.Problem
	add := func(msg string, args ...any) {
		probs = append(probs, fbc.Problem{Pkg: p.Name, Msg: fmt.Sprintf(msg, args...)})
	}
	if p.DefaultChannel == "" {
		add("default channel must be set")
	}
	if len(p.Channels) == 0 {
		add("package must contain at least one channel")
	}
	if msg := duplicateVersions(p); msg != "" {
		add("%s", msg)
	}
	if p.Deprecation != nil {
		for _, e := range p.Deprecation.Entries {
			if e.Message == "" {
				add("invalid deprecation: message must be set")
				break
			}
		}
	}
	for _, cn := range p.SortedChannels() {
		probs = append(probs, validateChannel(p, p.Channels[cn])...)
	}
	return probs
}

// duplicateVersions reports bundles sharing a version (with release), as opm words it.
func duplicateVersions(p *fbc.ModelPackage) string {
	byVersion := map[string][]string{}
	versions := map[string]semver.Version{}
	for _, b := range p.Bundles {
		vs := versionString(b)
		byVersion[vs] = append(byVersion[vs], b.Blob.Name)
		versions[vs] = b.Version
	}
	keys := fbc.SortedKeys(byVersion)
	sort.SliceStable(keys, func(i, j int) bool { return versions[keys[i]].LT(versions[keys[j]]) })
	var vals []string
	for _, k := range keys {
		names := byVersion[k]
		if len(names) > 1 {
			sort.Strings(names)
			vals = append(vals, fmt.Sprintf("{%s: [%s]}", k, strings.Join(names, ", ")))
		}
	}
	if len(vals) == 0 {
		return ""
	}
	return fmt.Sprintf("duplicate versions found in bundles: %v", vals)
}

func versionString(b *fbc.ModelBundle) string {
	if b.Release == "" {
		return b.Version.String()
	}
	return b.Version.String() + "-" + b.Release
}

func validateChannel(p *fbc.ModelPackage, c *fbc.ModelChannel) []fbc.Problem {
	var probs []fbc.Problem
	add := func(msg string, args ...any) {
		probs = append(probs, fbc.Problem{Pkg: p.Name, Channel: c.Name, Msg: fmt.Sprintf(msg, args...)})
	}
	if c.Name == "" {
		add("channel name must not be empty")
	}
	if c.Package == "" {
		add("package must be set")
	}
	if len(c.Entries) == 0 {
		add("channel must contain at least one bundle")
	} else if err := replacesChainError(c.Entries); err != "" {
		add("%s", err)
	}
	if msg := deprecationMessageMissing(p, fbc.SchemaChannel, c.Name); msg {
		add("invalid deprecation: message must be set")
	}
	entries := append([]fbc.ChannelEntry(nil), c.Entries...)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	for _, e := range entries {
		b := p.Bundles[e.Name]
		if b == nil {
			continue
		}
		for _, msg := range validateBundle(p, b, e) {
			probs = append(probs, fbc.Problem{Pkg: p.Name, Channel: c.Name, Bundle: e.Name, Msg: msg})
		}
	}
	return probs
}

func deprecationMessageMissing(p *fbc.ModelPackage, schema, name string) bool {
	if p.Deprecation == nil {
		return false
	}
	for _, e := range p.Deprecation.Entries {
		if e.Reference.Schema == schema && e.Reference.Name == name && e.Message == "" {
			return true
		}
	}
	return false
}

// replacesChainError checks opm's replaces chain: exactly one head, no cycle, no stranded bundles.
func replacesChainError(entries []fbc.ChannelEntry) string {
	byName := map[string]fbc.ChannelEntry{}
	skipped := map[string]bool{}
	for _, e := range entries {
		byName[e.Name] = e
		for _, s := range e.Skips {
			skipped[s] = true
		}
	}
	heads := graph.Heads(entries)
	switch {
	case len(heads) == 0:
		return "no channel head found in graph"
	case len(heads) > 1:
		return "multiple channel heads found in graph: " + strings.Join(heads, ", ")
	}
	chain := map[string]bool{heads[0]: true}
	path := []string{heads[0]}
	cur := byName[heads[0]]
	for {
		next, ok := byName[cur.Replaces]
		if cur.Replaces == "" || !ok || skipped[cur.Replaces] {
			break
		}
		if chain[next.Name] {
			return "detected cycle in replaces chain of upgrade graph: " + strings.Join(append(path, next.Name), " -> ")
		}
		chain[next.Name] = true
		path = append(path, next.Name)
		cur = next
	}
	var stranded []string
	for _, e := range entries {
		if !chain[e.Name] && !skipped[e.Name] {
			stranded = append(stranded, e.Name)
		}
	}
	if len(stranded) > 0 {
		sort.Strings(stranded)
		return "channel contains one or more stranded bundles: " + strings.Join(stranded, ", ")
	}
	return ""
}

// validateBundle returns opm's bundle checks for b as listed in one channel entry.
func validateBundle(p *fbc.ModelPackage, b *fbc.ModelBundle, e fbc.ChannelEntry) []string {
	var msgs []string
	bb := b.Blob
	if bb.Name == "" {
		msgs = append(msgs, "name must be set")
	}
	if b.Release != "" {
		if norm := p.Name + "-v" + b.Version.String() + "-" + b.Release; bb.Name != norm {
			msgs = append(msgs, fmt.Sprintf("name %q does not match normalized name %q", bb.Name, norm))
		}
	}
	for i, s := range e.Skips {
		if s == "" {
			msgs = append(msgs, fmt.Sprintf("skip[%d] is empty", i))
		}
	}
	if e.SkipRange != "" {
		if _, err := semver.ParseRange(e.SkipRange); err != nil {
			msgs = append(msgs, fmt.Sprintf("invalid skipRange %q: %v", e.SkipRange, err))
		}
	}
	if bb.Image == "" && len(b.Props.BundleObjects) == 0 {
		msgs = append(msgs, "bundle image must be set")
	}
	if deprecationMessageMissing(p, fbc.SchemaBundle, bb.Name) {
		msgs = append(msgs, "invalid deprecation: message must be set")
	}
	if b.Release != "" && len(b.Version.Build) > 0 {
		msgs = append(msgs, "cannot use build metadata in version with a release version")
	}
	return msgs
}
