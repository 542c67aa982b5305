package diff

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// Package is what changed in one package and what it means.
type Package struct {
	Name string `json:"package"`
	// Status is "added", "removed" or "changed".
	Status          string        `json:"status"`
	DefaultChannel  *Change       `json:"defaultChannel,omitempty"`
	BundlesAdded    []string      `json:"bundlesAdded,omitempty"`
	BundlesRemoved  []string      `json:"bundlesRemoved,omitempty"`
	BundlesChanged  []string      `json:"bundlesChanged,omitempty"` // same name, other content (image, properties)
	ChannelsAdded   []string      `json:"channelsAdded,omitempty"`
	ChannelsRemoved []string      `json:"channelsRemoved,omitempty"`
	HeadsMoved      []HeadMove    `json:"headsMoved,omitempty"`
	Entries         []EntryChange `json:"entries,omitempty"`
	Deprecations    []Deprecation `json:"deprecations,omitempty"`
	EdgesAdded      []Edge        `json:"edgesAdded,omitempty"`
	EdgesRemoved    []Edge        `json:"edgesRemoved,omitempty"`
	// EdgesAddedTotal and EdgesRemovedTotal count the edges when there are more than the lists
	// hold (10,000 each).
	EdgesAddedTotal   int        `json:"edgesAddedTotal,omitempty"`
	EdgesRemovedTotal int        `json:"edgesRemovedTotal,omitempty"`
	NewlyStranded     []Stranded `json:"newlyStranded,omitempty"`
	// Upgrades are the installed releases whose OLM v0 path or OLM v1 path differs.
	Upgrades []PathChange `json:"upgrades,omitempty"`
	// Findings are this package's findings (opm's checks, CRD safety of new edges, newly stranded releases).
	Findings []finding.Finding `json:"findings,omitempty"`

	versions map[string]string // bundle name → version, when no two bundles share one
	gHead    *graph.Graph      // HEAD's graph of the changed packages (mermaid draws the package's edges)
}

// edgesAdded and edgesRemoved are the counts of the package's edge changes.
func (p *Package) edgesAdded() int   { return max(p.EdgesAddedTotal, len(p.EdgesAdded)) }
func (p *Package) edgesRemoved() int { return max(p.EdgesRemovedTotal, len(p.EdgesRemoved)) }

// Change is a value before and after ("" when absent).
type Change struct {
	Before string `json:"before"`
	After  string `json:"after"`
}

// HeadMove is a channel whose head changed ("" when the channel has no single head).
type HeadMove struct {
	Channel string `json:"channel"`
	Change
}

// EntryChange is a channel entry added, removed or with another replaces, skips or skipRange.
type EntryChange struct {
	Channel string `json:"channel"`
	Bundle  string `json:"bundle"`
	// Field is "entry" (Before/After "absent" or "present"), "replaces", "skips" or "skipRange".
	Field string `json:"field"`
	Change
}

// Deprecation is a deprecation message that appeared, went or changed.
type Deprecation struct {
	// Reference is "package", "channel NAME" or "bundle NAME".
	Reference string `json:"reference"`
	Change
}

// Edge is an upgrade edge (graph.Edge without its package).
type Edge struct {
	Channel string `json:"channel"`
	From    string `json:"from"`
	To      string `json:"to"`
	Kind    string `json:"kind"`
}

// Stranded is a release that reached its channel's head in BASE and does not in HEAD.
type Stranded struct {
	Channel string `json:"channel"`
	Release string `json:"release"`
	Version string `json:"version"`
	// Removed is set when HEAD no longer holds the release (clusters still run it).
	Removed bool `json:"removed,omitempty"`
	// StrandedIn lists "v0" and/or "v1".
	StrandedIn []string `json:"strandedIn"`
	// Why says where each OLM stops now.
	Why string `json:"why"`
}

// PathChange is an installed release whose upgrades differ (OLM v0's path, OLM v1's path).
type PathChange struct {
	Channel  string   `json:"channel"`
	From     string   `json:"from"`
	Version  string   `json:"version"`
	Removed  bool     `json:"removed,omitempty"`
	V0Before []string `json:"v0Before"`
	V0After  []string `json:"v0After"`
	// V0StopBefore and V0StopAfter are why each v0 path ends (upgrades.StopHead, ...).
	V0StopBefore string   `json:"v0StopBefore"`
	V0StopAfter  string   `json:"v0StopAfter"`
	V1Before     []string `json:"v1Before"`
	V1After      []string `json:"v1After"`
	// The releases a long path leaves out before its last (upgrades.Release.V0Elided).
	V0ElidedBefore int `json:"v0ElidedBefore,omitempty"`
	V0ElidedAfter  int `json:"v0ElidedAfter,omitempty"`
	V1ElidedBefore int `json:"v1ElidedBefore,omitempty"`
	V1ElidedAfter  int `json:"v1ElidedAfter,omitempty"`
}

// analysis holds both sides' models of the changed packages.
type analysis struct {
	ctx            context.Context
	l              *loaded
	hs             *side
	o              options
	mBase, mHead   *fbc.Model
	gBase, gHead   *graph.Graph
	opm            []finding.Finding
	crd            []finding.Finding
	contents       map[string][]string // head file → lines
	out            []finding.Finding
	baseCfg, headC *fbc.DeclarativeConfig
	edges          map[string]*packageEdges // per changed package
}

// packageEdges are the edge changes of one package.
type packageEdges struct {
	added, removed   []Edge
	nAdded, nRemoved int
}

func newAnalysis(ctx context.Context, l *loaded, hs *side, o options) *analysis {
	touched := map[string]bool{}
	for _, p := range l.touched {
		touched[p] = true
	}
	a := &analysis{ctx: ctx, l: l, hs: hs, o: o, contents: map[string][]string{},
		baseCfg: onlyPackages(l.base, touched), headC: onlyPackages(l.head, touched)}
	a.mBase, _ = fbc.Convert(a.baseCfg)
	a.mHead, _ = fbc.Convert(a.headC)
	a.gBase, a.gHead = graph.BuildGraph(a.mBase), graph.BuildGraph(a.mHead)
	a.edges = map[string]*packageEdges{}
	for p := range touched {
		e := &packageEdges{}
		e.added, e.removed, e.nAdded, e.nRemoved = edgeChanges(a.gBase, a.gHead, a.mBase.Packages[p], a.mHead.Packages[p], p)
		a.edges[p] = e
	}
	a.opm = check.Validate(ctx, a.headC, check.WithChecks(check.CheckOPM)).Findings
	a.crd = a.newEdgeCRDs()
	return a
}

// newEdgeCRDs checks CRD safety on the edges of HEAD that BASE does not have (same package,
// from and to, in any channel and of any kind), and on those only: the edges edgeChanges found
// added, less those BASE makes in another channel or of another kind.
func (a *analysis) newEdgeCRDs() []finding.Finding {
	g := &graph.Graph{Heads: a.gHead.Heads}
	var unchecked []finding.Finding
	for _, p := range fbc.SortedKeys(a.edges) {
		e := a.edges[p]
		old := basePairs(a.gBase, p)
		for _, x := range e.added {
			if !old.has(x.From, x.To) {
				g.Edges = append(g.Edges, graph.Edge{Package: p, Channel: x.Channel, From: x.From, To: x.To, Kind: graph.EdgeKind(x.Kind)})
			}
		}
		if e.nAdded > len(e.added) {
			unchecked = append(unchecked, finding.Warnf("", fmt.Sprintf("package %q", p), ruleCRDUpgrade,
				"this change adds %d upgrade edges: the first %d were checked for CRD safety; run opack catalog validate on HEAD to check them all", e.nAdded, len(e.added)))
		}
	}
	if len(g.Edges) == 0 {
		return unchecked
	}
	fs, _ := check.CheckEdges(a.ctx, a.mHead, g, a.o.crds)
	return append(fs, unchecked...)
}

// ruleCRDUpgrade is catalog validate's rule of CRD checks on upgrade edges.
const ruleCRDUpgrade = "catalog/crd-upgrade"

// pairs answers whether a package's graph has an edge from → to, of any kind, in any channel.
type pairs struct {
	explicit map[[2]string]bool
	ranges   map[string][]*graph.RangeEdges // by To
	pos      map[*string]map[string]int     // positions in each channel's version index
}

func basePairs(g *graph.Graph, p string) *pairs {
	out := &pairs{explicit: map[[2]string]bool{}, ranges: map[string][]*graph.RangeEdges{}, pos: map[*string]map[string]int{}}
	for e := range explicitEdges(g, p) {
		out.explicit[[2]string{e.From, e.To}] = true
	}
	for i := range g.Ranges {
		if r := &g.Ranges[i]; r.Package == p {
			out.ranges[r.To] = append(out.ranges[r.To], r)
		}
	}
	return out
}

func (ps *pairs) has(from, to string) bool {
	if ps.explicit[[2]string{from, to}] {
		return true
	}
	for _, r := range ps.ranges[to] {
		if len(r.Index) == 0 {
			continue
		}
		k := &r.Index[0]
		if ps.pos[k] == nil {
			ps.pos[k] = indexPositions(r.Index)
		}
		if i, ok := ps.pos[k][from]; ok && covers(r, i) {
			return true
		}
	}
	return false
}

// findings returns every finding, errors first, each on the HEAD file (and line) it is about.
func (a *analysis) findings() []finding.Finding {
	out := slices.Clone(a.out)
	finding.SortFindings(out)
	slices.SortStableFunc(out, func(x, y finding.Finding) int { return rank(x.Severity) - rank(y.Severity) })
	if out == nil {
		out = []finding.Finding{}
	}
	return out
}

func rank(s finding.Severity) int {
	switch s {
	case finding.SeverityError:
		return 0
	case finding.SeverityWarning:
		return 1
	}
	return 2
}

// pkg compares package p.
func (a *analysis) pkg(p string) Package {
	bp, hp := a.mBase.Packages[p], a.mHead.Packages[p]
	r := Package{Name: p, Status: "changed", versions: uniqueVersions(bp, hp)}
	switch {
	case !hasPackage(a.baseCfg, p):
		r.Status = "added"
	case !hasPackage(a.headC, p):
		r.Status = "removed"
	}
	r.DefaultChannel = defaultChange(a.baseCfg, a.headC, p)
	r.BundlesAdded, r.BundlesRemoved, r.BundlesChanged = bundleChanges(a.baseCfg, a.headC, p)
	bc, hc := channelsOf(a.baseCfg, p), channelsOf(a.headC, p)
	r.ChannelsAdded, r.ChannelsRemoved = addedRemoved(fbc.SortedKeys(bc), fbc.SortedKeys(hc))
	r.HeadsMoved, r.Entries = channelChanges(bc, hc)
	r.Deprecations = deprecationChanges(a.baseCfg, a.headC, p)
	if e := a.edges[p]; e != nil {
		r.EdgesAdded, r.EdgesRemoved = e.added, e.removed
		if e.nAdded > len(e.added) {
			r.EdgesAddedTotal = e.nAdded
		}
		if e.nRemoved > len(e.removed) {
			r.EdgesRemovedTotal = e.nRemoved
		}
	}
	r.gHead = a.gHead
	r.NewlyStranded, r.Upgrades = upgradeChanges(bp, hp, a.mBase, a.mHead, p, r.short)
	for _, f := range a.opm {
		if fbc.PackageOf(f.Object) == p || (f.Object == "" && r.Status != "removed") {
			r.Findings = append(r.Findings, a.locate(f, p))
		}
	}
	for _, f := range a.crd {
		if fbc.PackageOf(f.Object) == p {
			r.Findings = append(r.Findings, a.locate(f, p))
		}
	}
	for _, f := range strandedFindings(p, &r) {
		r.Findings = append(r.Findings, a.locate(f, p))
	}
	for _, f := range removalFindings(a.baseCfg, bp, &r) {
		if file := a.l.baseSrc.File(p, "", ""); file != "" {
			f.File = a.hs.file(file)
		}
		r.Findings = append(r.Findings, f)
	}
	a.out = append(a.out, r.Findings...)
	return r
}

// fixStranded is the fix of an accidental strand.
const fixStranded = "keep an upgrade path from each of them to the channel head: restore the entry removed, or make a later entry replace or skip it"

// strandedFindings is one error per channel with newly stranded releases: the channel goes on
// without them, an accidental strand.
func strandedFindings(pkg string, r *Package) []finding.Finding {
	var out []finding.Finding
	for _, g := range r.strandedByChannel() {
		f := finding.Errorf("", fmt.Sprintf("package %q channel %q", pkg, g.channel), RuleNewlyStranded,
			"accidental strand: in a channel that stays, %d release(s) that reached its head before no longer do: %s", g.n, g.text)
		f.Fix = fixStranded
		out = append(out, f)
	}
	return out
}

// removalFindings reports the deliberate removals of package p: the package as a whole, or each
// channel of it HEAD no longer has. Both are warnings, or info when BASE deprecated what goes (for a
// channel: it or its package), as the deprecation told the users of the clusters that get no more
// upgrades.
func removalFindings(base *fbc.DeclarativeConfig, bp *fbc.ModelPackage, r *Package) []finding.Finding {
	p := r.Name
	pkgMsg, pkgDeprecated := deprecation(base, p, "olm.package", "")
	if r.Status == "removed" {
		return []finding.Finding{removal(fmt.Sprintf("package %q", p), RulePackageRemoved,
			fmt.Sprintf("package %s is removed with its %d release(s): clusters running one of them get no more upgrades", p, len(r.BundlesRemoved)),
			"package", pkgMsg, pkgDeprecated)}
	}
	var out []finding.Finding
	for _, cn := range r.ChannelsRemoved {
		n := 0
		if bp != nil && bp.Channels[cn] != nil {
			n = len(bp.Channels[cn].Entries)
		}
		msg, deprecated := deprecation(base, p, "olm.channel", cn)
		if !deprecated && pkgDeprecated {
			msg, deprecated = pkgMsg, true
		}
		out = append(out, removal(fmt.Sprintf("package %q channel %q", p, cn), RuleChannelRemoved,
			fmt.Sprintf("channel %s is removed with its %d release(s): clusters subscribed to it get no more upgrades", cn, n),
			"channel", msg, deprecated))
	}
	return out
}

// removal is the finding of a deliberate removal: what goes (text) and whether BASE deprecated it
// (with message msg).
func removal(object, rule, text, what, msg string, deprecated bool) finding.Finding {
	if deprecated {
		return finding.Finding{Severity: finding.SeverityInfo, Object: object, Rule: rule,
			Message: fmt.Sprintf("deliberate removal: %s, as the deprecation of the %s told their users (%q)", text, what, msg)}
	}
	f := finding.Warnf("", object, rule, "deliberate removal: %s, and no deprecation of the %s told their users", text, what)
	f.Fix = fmt.Sprintf("deprecate the %s (olm.deprecations) in a catalog update before removing it, so that the users of its releases are told to move", what)
	return f
}

// deprecation returns the deprecation message cfg gives a reference of package p (schema olm.package,
// olm.channel or olm.bundle, and its name).
func deprecation(cfg *fbc.DeclarativeConfig, p, schema, name string) (string, bool) {
	for _, d := range cfg.Deprecations {
		if d.Package != p {
			continue
		}
		for _, e := range d.Entries {
			if e.Reference.Schema == schema && e.Reference.Name == name {
				return e.Message, true
			}
		}
	}
	return "", false
}

// strandedGroup is the newly stranded releases of one channel, with why (said once when they
// share the reason).
type strandedGroup struct {
	channel, text string
	n             int
}

func (r *Package) strandedByChannel() []strandedGroup {
	byChannel := map[string][]Stranded{}
	for _, s := range r.NewlyStranded {
		byChannel[s.Channel] = append(byChannel[s.Channel], s)
	}
	var out []strandedGroup
	for _, cn := range fbc.SortedKeys(byChannel) {
		ss := byChannel[cn]
		same := true
		for _, s := range ss {
			same = same && s.Why == ss[0].Why
		}
		names := make([]string, len(ss))
		for i, s := range ss {
			names[i] = r.release(s.Release, s.Removed)
			if !same {
				names[i] += ": " + s.Why
			}
		}
		text := strings.Join(names, "; ")
		if same {
			text = strings.Join(names, ", ") + ": " + ss[0].Why
		}
		out = append(out, strandedGroup{channel: cn, text: text, n: len(ss)})
	}
	return out
}

func hasPackage(cfg *fbc.DeclarativeConfig, p string) bool { return packagesOf(cfg)[p] }

// uniqueVersions maps the bundles of both sides to their versions, or returns nil when two
// bundles share a version (names are then clearer).
func uniqueVersions(ps ...*fbc.ModelPackage) map[string]string {
	out, seen := map[string]string{}, map[string]string{}
	for _, p := range ps {
		if p == nil {
			continue
		}
		for n, b := range p.Bundles {
			if !b.HasVersion {
				return nil
			}
			v := b.Version.String()
			if other, ok := seen[v]; ok && other != n {
				return nil
			}
			seen[v], out[n] = n, v
		}
	}
	return out
}
