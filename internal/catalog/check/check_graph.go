package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/finding"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// checkGraph checks what opm does not: skipRange semantics (a range must parse and must only
// cover versions lower than the bundle's own, else it is a downgrade edge), a default channel
// whose head is not the highest version of the package, and bundles only reachable as a skip.
func checkGraph(m *fbc.Model, g *graph.Graph) []finding.Finding {
	var out []finding.Finding
	for _, pn := range m.SortedPackages() {
		p := m.Packages[pn]
		for _, cn := range p.SortedChannels() {
			out = append(out, skipRangeFindings(p, p.Channels[cn])...)
			out = append(out, skipOnlyFindings(p, p.Channels[cn])...)
		}
		out = append(out, defaultHeadFindings(p, g)...)
	}
	return append(out, downgradeFindings(m, g)...)
}

func skipRangeFindings(p *fbc.ModelPackage, c *fbc.ModelChannel) []finding.Finding {
	var out []finding.Finding
	obj := fmt.Sprintf("package %q channel %q", p.Name, c.Name)
	for _, e := range c.Entries {
		b := p.Bundles[e.Name]
		if e.SkipRange == "" || b == nil {
			continue
		}
		r, err := semver.ParseRange(e.SkipRange)
		if err != nil {
			out = append(out, finding.Errorf("", obj, ruleGraph, "bundle %s: skipRange %q is not a valid semver range: %v (OLM ignores it, so no upgrade edge is made)", e.Name, e.SkipRange, err))
			continue
		}
		if r(b.Version) {
			out = append(out, finding.Warnf("", obj, ruleGraph, "bundle %s: skipRange %q includes the bundle's own version %s; end the range below it (e.g. \"<%s\") so that it cannot cover later releases", e.Name, e.SkipRange, b.Version, b.Version))
		}
	}
	return out
}

// maxNamed bounds the bundles one finding names; the rest are counted.
const maxNamed = 3

// downgradeFindings reports each skipRange that covers bundles of higher versions than its own
// (OLM would offer a downgrade): one finding per range, naming the count and the first few, read
// from the graph's version-sorted spans so that a channel of n such ranges costs n log n, not n².
func downgradeFindings(m *fbc.Model, g *graph.Graph) []finding.Finding {
	var out []finding.Finding
	for i := range g.Ranges {
		r := &g.Ranges[i]
		p := m.Packages[r.Package]
		b := p.Bundles[r.To]
		if b == nil {
			continue
		}
		var higher []string
		n := 0
		for _, s := range r.Spans {
			lo := max(int(s[0]), sort.Search(len(r.Index), func(j int) bool { return p.Bundles[r.Index[j]].Version.GT(b.Version) }))
			if lo >= int(s[1]) {
				continue
			}
			n += int(s[1]) - lo
			higher = append(higher, r.Index[lo:min(int(s[1]), lo+maxNamed-len(higher))]...)
		}
		if n == 0 {
			continue
		}
		obj := fmt.Sprintf("package %q channel %q", r.Package, r.Channel)
		if n == 1 {
			hb := p.Bundles[higher[0]]
			out = append(out, finding.Errorf("", obj, ruleGraph, "bundle %s: skipRange %q includes %s, a higher version (%s > %s): OLM would offer a downgrade", r.To, r.SkipRange, higher[0], hb.Version, b.Version))
			continue
		}
		more := ""
		if n > len(higher) {
			more = fmt.Sprintf(", … (%d more)", n-len(higher))
		}
		out = append(out, finding.Errorf("", obj, ruleGraph, "bundle %s: skipRange %q includes %d bundles of higher versions than its own %s (%s%s): OLM would offer a downgrade to each",
			r.To, r.SkipRange, n, b.Version, strings.Join(higher, ", "), more))
	}
	return out
}

// skipOnlyFindings warns about entries whose only link into the graph is being skipped: not
// the head, not on the replaces chain, and with no edge of their own leading into them. The
// finding's edge is that skip (entry -> the bundle skipping it), so that a build can tell one about
// releases it adds from one about releases already published.
func skipOnlyFindings(p *fbc.ModelPackage, c *fbc.ModelChannel) []finding.Finding {
	head, ok := graph.ChannelHead(c.Entries)
	if !ok {
		return nil
	}
	byName := map[string]fbc.ChannelEntry{}
	skippedBy := map[string]string{}
	replaced := map[string]bool{}
	for _, e := range c.Entries {
		byName[e.Name] = e
		for _, s := range e.Skips {
			if skippedBy[s] == "" {
				skippedBy[s] = e.Name
			}
		}
		if e.Replaces != "" {
			replaced[e.Replaces] = true
		}
	}
	var out []finding.Finding
	obj := fmt.Sprintf("package %q channel %q", p.Name, c.Name)
	for _, e := range c.Entries {
		if e.Name == head || skippedBy[e.Name] == "" || replaced[e.Name] {
			continue
		}
		if e.Replaces != "" || len(e.Skips) > 0 || e.SkipRange != "" {
			continue
		}
		f := finding.Warnf("", obj, ruleGraph, "bundle %s is only in the graph as a skip of %s: nothing upgrades into it, so it can only be installed directly", e.Name, skippedBy[e.Name])
		f.Package, f.Edges = p.Name, []finding.Edge{{From: e.Name, To: skippedBy[e.Name]}}
		out = append(out, f)
	}
	return out
}

func defaultHeadFindings(p *fbc.ModelPackage, g *graph.Graph) []finding.Finding {
	dc := p.Channels[p.DefaultChannel]
	if dc == nil {
		return nil
	}
	head, ok := g.Heads[p.Name][dc.Name]
	hb := p.Bundles[head]
	if !ok || hb == nil {
		return nil
	}
	var top *fbc.ModelBundle
	for _, bn := range fbc.SortedKeys(p.Bundles) {
		if b := p.Bundles[bn]; top == nil || b.Version.GT(top.Version) {
			top = b
		}
	}
	if top != nil && top.Version.GT(hb.Version) {
		return []finding.Finding{finding.Warnf("", fmt.Sprintf("package %q", p.Name), ruleGraph,
			"the head of default channel %q is %s (%s), but %s (%s) is a higher version: new installs get the older one", dc.Name, head, hb.Version, top.Blob.Name, top.Version)}
	}
	return nil
}
