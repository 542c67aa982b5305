package graph

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/escape"
	"github.com/opack/opack/internal/fbc"
)

// GraphOptions configures WriteMermaid and WriteDot.
type GraphOptions struct {
	// Package limits the output to one package (opm render-graph --package-name).
	Package string
	// MinEdge drops edges below the named bundle (opm render-graph --minimum-edge).
	MinEdge string
	// DrawV0Semantics marks bundles OLM v0 skips and the links it ignores (opm --draw-v0-semantics).
	DrawV0Semantics bool
	// Unsafe maps edges to the reason they are unsafe; they are drawn red and labelled with it.
	Unsafe map[EdgeKey]string
	// CollapseRanges draws each skipRange as one edge, from the lowest release it covers,
	// labelled with the range and the number of releases (opm draws one edge per release).
	CollapseRanges bool
}

const UnsafeLinkStyle = "stroke:#FF0000,stroke-width:4px;"

// WriteMermaid writes the upgrade graph of cfg as opm's MermaidWriter.WriteChannels does
// (`opm alpha render-graph`); edges listed in o.Unsafe are labelled with their reason and
// drawn red (a line opm never writes).
func WriteMermaid(cfg *fbc.DeclarativeConfig, w io.Writer, o GraphOptions) error {
	versions, err := BundleVersions(cfg)
	if err != nil {
		return err
	}
	var minVersion semver.Version
	minPkg := ""
	if o.MinEdge != "" {
		v, ok := versions[o.MinEdge]
		if !ok {
			return fmt.Errorf("unknown minimum edge name: %q", o.MinEdge)
		}
		minVersion = v
		minPkg = minEdgePackage(cfg, o.MinEdge)
	}
	channels := append([]fbc.Channel(nil), cfg.Channels...)
	sort.SliceStable(channels, func(i, j int) bool { return channels[i].Name < channels[j].Name })
	depPkg, depChan, depBundle := deprecated(cfg)
	mw := &mermaidWriter{o: o, versions: versions, pkgs: map[string]*strings.Builder{},
		decorated: map[string][]string{}}
	var deprecatedPackage string
	var deprecatedChannels []string
	for i := range channels {
		fc := filterChannel(&channels[i], o, versions, minVersion, minPkg)
		if fc == nil {
			continue
		}
		id := escape.MermaidID(fc.Package + "-" + fc.Name)
		if depPkg[fc.Package] {
			deprecatedPackage = fc.Package
		}
		if depChan[fc.Name] {
			deprecatedChannels = append(deprecatedChannels, id)
		}
		mw.channel(fc, id, depBundle)
	}
	var b strings.Builder
	b.WriteString("graph LR\n  classDef deprecated fill:#E8960F\n  classDef skipped stroke:#FF0000,stroke-width:4px\n" +
		"  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n")
	for _, name := range fbc.SortedKeys(mw.pkgs) {
		fmt.Fprintf(&b, "  %%%% package %s\n  subgraph %s\n%s  end\n", quoteLabel(name), quoteLabel(name), mw.pkgs[name].String())
	}
	if deprecatedPackage != "" {
		fmt.Fprintf(&b, "style %s fill:#989695\n", escape.MermaidID(deprecatedPackage))
	}
	for _, id := range deprecatedChannels {
		fmt.Fprintf(&b, "style %s fill:#DCD0FF\n", id)
	}
	for _, key := range []string{"deprecated", "deprecatedskipped", "skipped"} {
		if ids := mw.decorated[key]; len(ids) > 0 {
			sort.Strings(ids)
			fmt.Fprintf(&b, "class %s %s\n", strings.Join(ids, ","), key)
		}
	}
	if len(mw.skippedLinks) > 0 {
		fmt.Fprintf(&b, "linkStyle %s stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n", strings.Join(mw.skippedLinks, ","))
	}
	if len(mw.unsafeLinks) > 0 {
		fmt.Fprintf(&b, "linkStyle %s %s\n", strings.Join(mw.unsafeLinks, ","), UnsafeLinkStyle)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

type mermaidWriter struct {
	o            GraphOptions
	versions     map[string]semver.Version
	pkgs         map[string]*strings.Builder
	decorated    map[string][]string
	linkID       int
	skippedLinks []string
	unsafeLinks  []string
}

func (mw *mermaidWriter) channel(c *fbc.Channel, id string, depBundle map[string]bool) {
	pb := mw.pkgs[c.Package]
	if pb == nil {
		pb = &strings.Builder{}
		mw.pkgs[c.Package] = pb
	}
	fmt.Fprintf(pb, "    %%%% channel %s\n    subgraph %s[%s]\n", quoteLabel(c.Name), id, quoteLabel(c.Name))
	entries := make([]*fbc.ChannelEntry, len(c.Entries))
	for i := range c.Entries {
		entries[i] = &c.Entries[i]
	}
	sort.SliceStable(entries, func(i, j int) bool { return mw.versions[entries[i].Name].GT(mw.versions[entries[j].Name]) })
	skipped := map[string]bool{}
	semantics := func(edge string, captureNew bool) {
		if !mw.o.DrawV0Semantics {
			return
		}
		if skipped[edge] {
			mw.skippedLinks = append(mw.skippedLinks, fmt.Sprint(mw.linkID))
		} else if captureNew {
			skipped[edge] = true
		}
	}
	for _, ce := range entries {
		eid := nodeID(id, ce.Name)
		fmt.Fprintf(pb, "      %s[%s]\n", eid, quoteLabel(ce.Name))
		switch {
		case depBundle[ce.Name] && skipped[ce.Name]:
			mw.decorated["deprecatedskipped"] = append(mw.decorated["deprecatedskipped"], eid)
		case depBundle[ce.Name]:
			mw.decorated["deprecated"] = append(mw.decorated["deprecated"], eid)
		case skipped[ce.Name]:
			mw.decorated["skipped"] = append(mw.decorated["skipped"], eid)
		}
		for _, s := range ce.Skips {
			mw.link(pb, c, id, s, "skip", ce.Name)
			semantics(s, true)
			mw.linkID++
		}
		if ce.SkipRange != "" {
			if r, err := semver.ParseRange(ce.SkipRange); err == nil && mw.o.CollapseRanges {
				if mw.collapsedRange(pb, c, id, ce, r) {
					semantics(ce.Name, false)
					mw.linkID++
				}
			} else if err == nil {
				for _, other := range c.Entries {
					if r(mw.versions[other.Name]) {
						mw.link(pb, c, id, other.Name, `"skipRange(`+escape.MermaidLabel(ce.SkipRange)+`)"`, ce.Name)
						semantics(ce.Name, false)
						mw.linkID++
					}
				}
			}
		}
		if ce.Replaces != "" {
			mw.link(pb, c, id, ce.Replaces, "replace", ce.Name)
			semantics(ce.Name, false)
			mw.linkID++
		}
	}
	pb.WriteString("    end\n")
}

// collapsedRange writes ce's skipRange as one edge from the lowest release it covers, labelled
// with the range, the number of releases and the unsafe ones.
func (mw *mermaidWriter) collapsedRange(pb *strings.Builder, c *fbc.Channel, id string, ce *fbc.ChannelEntry, r semver.Range) bool {
	var covered []string
	for _, other := range c.Entries {
		if r(mw.versions[other.Name]) {
			covered = append(covered, other.Name)
		}
	}
	if len(covered) == 0 {
		return false
	}
	label, unsafe := collapsedLabel(c.Package, ce.SkipRange, ce.Name, covered, func(n string) semver.Version { return mw.versions[n] }, mw.o.Unsafe)
	lowest := covered[0]
	for _, n := range covered {
		if mw.versions[n].LT(mw.versions[lowest]) {
			lowest = n
		}
	}
	if unsafe {
		mw.unsafeLinks = append(mw.unsafeLinks, fmt.Sprint(mw.linkID))
	}
	fmt.Fprintf(pb, "      %s[%s]-- %s --> %s[%s]\n", nodeID(id, lowest), quoteLabel(lowest), quoteLabel(mermaidText(label)), nodeID(id, ce.Name), quoteLabel(ce.Name))
	return true
}

// link writes one edge; an unsafe edge gets its reason in the label and a red link style.
func (mw *mermaidWriter) link(pb *strings.Builder, c *fbc.Channel, id, from, label, to string) {
	if reason, ok := mw.o.Unsafe[EdgeKey{c.Package, from, to}]; ok {
		label = `"` + strings.Trim(label, `"`) + ": " + escape.MermaidLabel(mermaidText(reason)) + `"`
		mw.unsafeLinks = append(mw.unsafeLinks, fmt.Sprint(mw.linkID))
	}
	fmt.Fprintf(pb, "      %s[%s]-- %s --> %s[%s]\n", nodeID(id, from), quoteLabel(from), label, nodeID(id, to), quoteLabel(to))
}

// mermaidText shortens a reason for a label (quoteLabel or escape.MermaidLabel escapes it).
func mermaidText(s string) string {
	s = strings.NewReplacer("[", "(", "]", ")").Replace(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// quoteLabel is a quoted Mermaid label: opm writes a Go-quoted name, which for the names catalogs
// hold is the name in quotes; escape.MermaidLabel makes any other name one safe label.
func quoteLabel(s string) string { return `"` + escape.MermaidLabel(s) + `"` }

// nodeID is the id of a bundle's node in a channel's subgraph: opm's "<channel id>-<bundle>" for
// the names catalogs hold, a hash for any other (escape.MermaidID).
func nodeID(channelID, bundle string) string { return escape.MermaidID(channelID + "-" + bundle) }

// BundleVersions maps every bundle of cfg to its version.
func BundleVersions(cfg *fbc.DeclarativeConfig) (map[string]semver.Version, error) {
	out := map[string]semver.Version{}
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		if _, ok := out[b.Name]; ok {
			continue
		}
		_, v, err := fbc.BundleVersion(b)
		if err != nil {
			return nil, err
		}
		out[b.Name] = v
	}
	return out, nil
}

func minEdgePackage(cfg *fbc.DeclarativeConfig, name string) string {
	for _, c := range cfg.Channels {
		for _, e := range c.Entries {
			if e.Name == name {
				return c.Package
			}
		}
	}
	return ""
}

func deprecated(cfg *fbc.DeclarativeConfig) (pkgs, chans, bundles map[string]bool) {
	pkgs, chans, bundles = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range cfg.Deprecations {
		for _, e := range d.Entries {
			switch e.Reference.Schema {
			case fbc.SchemaPackage:
				pkgs[d.Package] = true
			case fbc.SchemaChannel:
				chans[e.Reference.Name] = true
			case fbc.SchemaBundle:
				bundles[e.Reference.Name] = true
			}
		}
	}
	return pkgs, chans, bundles
}

// filterChannel applies the package and minimum-edge filters as opm does; nil drops the channel.
func filterChannel(c *fbc.Channel, o GraphOptions, versions map[string]semver.Version, minV semver.Version, minPkg string) *fbc.Channel {
	if o.MinEdge == "" && o.Package == "" {
		return c
	}
	if (o.Package != "" && c.Package != o.Package) || (minPkg != "" && c.Package != minPkg) {
		return nil
	}
	out := &fbc.Channel{Name: c.Name, Package: c.Package, Properties: c.Properties}
	for _, ce := range c.Entries {
		f := fbc.ChannelEntry{Name: ce.Name}
		bare := ce.Replaces == "" && ce.SkipRange == "" && len(ce.Skips) == 0
		switch {
		case o.MinEdge == "":
			f.Replaces, f.SkipRange, f.Skips = ce.Replaces, ce.SkipRange, append([]string(nil), ce.Skips...)
		case ce.Name == o.MinEdge:
			out.Entries = append(out.Entries, f)
			continue
		default:
			if ce.Replaces != "" && versions[ce.Replaces].GTE(minV) {
				f.Replaces = ce.Replaces
			}
			for _, s := range ce.Skips {
				if versions[s].GTE(minV) {
					f.Skips = append(f.Skips, s)
				}
			}
			if r, err := semver.ParseRange(ce.SkipRange); ce.SkipRange != "" && err == nil && r(minV) {
				f.SkipRange = ce.SkipRange
			}
		}
		keep := f.Replaces != "" || len(f.Skips) > 0 || f.SkipRange != ""
		if !keep && bare && (o.MinEdge == "" || versions[f.Name].GTE(minV)) {
			keep = true
		}
		if keep {
			out.Entries = append(out.Entries, f)
		}
	}
	if len(out.Entries) == 0 {
		return nil
	}
	return out
}
