package upgrades

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blang/semver/v4"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// Request names what to compute.
type Request struct {
	// Package is the package (required).
	Package string
	// Channel limits the result to one channel; "" is every channel of the package.
	Channel string
	// From limits the result to one installed release: a bundle name, a version, or
	// NAME@VERSION for a release the catalog no longer holds; "" is every bundle of the channel.
	// With Channel set, From may be a bundle of another channel of the package: the cluster
	// installed it from that channel and its Subscription (ClusterExtension) now names Channel.
	From string
}

// Stop reasons of an OLM v0 path.
const (
	// StopHead: the path ends at the channel head.
	StopHead = "head"
	// StopNoUpgrade: no entry of the channel replaces, skips or skipRange-includes the last release.
	StopNoUpgrade = "no-upgrade"
	// StopCycle: the path came back to a release it had installed.
	StopCycle = "cycle"
	// StopUnresolvable: OLM v0 cannot order the channel (resolution fails for every subscription).
	StopUnresolvable = "unresolvable"
)

// Result is the upgrades of one package.
type Result struct {
	Package        string          `json:"package"`
	DefaultChannel string          `json:"defaultChannel,omitempty"`
	Channels       []ChannelResult `json:"channels"`
}

// ChannelResult is the upgrades from the releases of one channel.
type ChannelResult struct {
	Name string `json:"name"`
	// Head is the channel head ("" when the channel has none or several).
	Head string `json:"head,omitempty"`
	// V0Error is why OLM v0 cannot resolve in this channel at all ("" normally).
	V0Error  string    `json:"v0Error,omitempty"`
	Releases []Release `json:"releases"`
	// Stranded are the releases (not the head) from which OLM v0 or OLM v1 does not reach the head.
	Stranded []string `json:"stranded,omitempty"`

	// versions maps the channel's bundle names to their versions when no two share one (the
	// text output then writes paths as versions).
	versions map[string]string
}

// Release is one installed release and where OLM takes it.
type Release struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// NotInCatalog is set for a release given with --from that the catalog does not hold.
	NotInCatalog bool `json:"notInCatalog,omitempty"`
	// NotInChannel is set for a release given with --from and --channel that is a bundle of
	// another channel of the package (a channel switch).
	NotInChannel bool `json:"notInChannel,omitempty"`
	// Deprecated is set when the package's olm.deprecations names the bundle.
	Deprecated bool `json:"deprecated,omitempty"`
	// V0Path is every release OLM v0 installs after this one, in order (one InstallPlan each); a
	// path of more than 32 releases lists its first 31 and its last, and V0Elided counts the
	// releases left out between them.
	V0Path   []string `json:"v0Path"`
	V0Elided int      `json:"v0Elided,omitempty"`
	// V0Stop is why the v0 path ends (StopHead, StopNoUpgrade, StopCycle, StopUnresolvable).
	V0Stop string `json:"v0Stop"`
	// V0Ignored names, when the path stops short of the head, the entries that would upgrade the
	// last release but that OLM v0 does not install, and why.
	V0Ignored string `json:"v0Ignored,omitempty"`
	// V1Target is the release OLM v1 resolves to from this one ("" when it stays).
	V1Target string `json:"v1Target,omitempty"`
	// V1Passed names, when OLM v1 stays short of the head, the successors it does not pick and why.
	V1Passed string `json:"v1Passed,omitempty"`
	// V1Path is V1Target and the releases OLM v1 moves on to after it, until it stays; elided as
	// V0Path is (V1Elided).
	V1Path   []string `json:"v1Path"`
	V1Elided int      `json:"v1Elided,omitempty"`
	// StrandedIn lists "v0" and/or "v1" when that OLM does not bring this release to the head.
	StrandedIn []string `json:"strandedIn,omitempty"`
}

// installed is a release on a cluster: its CSV name and version.
type installed struct {
	name    string
	version semver.Version
}

// Compute returns the upgrades of req.Package in m.
func Compute(m *fbc.Model, req Request) (*Result, error) {
	p := m.Packages[req.Package]
	if p == nil {
		return nil, fmt.Errorf("package %q is not in the catalog", req.Package)
	}
	chans := p.SortedChannels()
	if req.Channel != "" {
		if p.Channels[req.Channel] == nil {
			return nil, fmt.Errorf("channel %q is not in package %q (channels: %s)", req.Channel, req.Package, strings.Join(chans, ", "))
		}
		chans = []string{req.Channel}
	}
	from, fromInCatalog, err := parseFrom(p, req.From)
	if err != nil {
		return nil, err
	}
	res := &Result{Package: p.Name, DefaultChannel: p.DefaultChannel}
	for _, cn := range chans {
		c := p.Channels[cn]
		pc := newPackageChannel(p, c)
		var starts []installed
		switch {
		case from == nil:
			starts = pc.releases()
		case !fromInCatalog || pc.has(from.name) || req.Channel != "":
			// A bundle of another channel with --channel: the subscription was moved to this
			// channel (both OLMs start from the installed CSV, in or out of the channel).
			starts = []installed{*from}
		default:
			continue // --from names a bundle of another channel
		}
		res.Channels = append(res.Channels, pc.result(starts))
	}
	if len(res.Channels) == 0 {
		return nil, fmt.Errorf("release %q is in no channel of package %q", req.From, req.Package)
	}
	return res, nil
}

// parseFrom resolves --from: a bundle name, a bundle version, or NAME@VERSION (a release the
// catalog may not hold). The bool is whether the release is a bundle of the package.
func parseFrom(p *fbc.ModelPackage, from string) (*installed, bool, error) {
	if from == "" {
		return nil, false, nil
	}
	if b := p.Bundles[from]; b != nil {
		return &installed{name: from, version: b.Version}, true, nil
	}
	name, ver, hasName := strings.Cut(from, "@")
	if !hasName {
		name, ver = "", from
	}
	v, err := semver.ParseTolerant(ver)
	if err != nil {
		return nil, false, fmt.Errorf("reading --from %q: not a bundle of package %q, a version or NAME@VERSION: %w", from, p.Name, err)
	}
	if name != "" {
		if b := p.Bundles[name]; b != nil {
			return &installed{name: name, version: b.Version}, true, nil
		}
		return &installed{name: name, version: v}, false, nil
	}
	for _, bn := range fbc.SortedKeys(p.Bundles) {
		if p.Bundles[bn].Version.Equals(v) {
			return &installed{name: bn, version: p.Bundles[bn].Version}, true, nil
		}
	}
	return &installed{version: v}, false, nil
}

// packageChannel is one channel prepared for both resolvers.
type packageChannel struct {
	p       *fbc.ModelPackage
	c       *fbc.ModelChannel
	head    string
	entries []entry // the channel's entries whose bundle exists, in channel order
	byName  map[string]int
	v0      *v0Channel
	v1      *v1Channel

	// The index of candidates: the entries that name a release in replaces or skips, the
	// entries with a skipRange grouped by range (each range evaluated once per release), and
	// the entries by version and release (OLM v1).
	byReplaces, bySkips, byVersion map[string][]int
	ranges                         []rangeGroup
}

// rangeGroup is the entries of a channel that share one skipRange.
type rangeGroup struct {
	r       semver.Range
	entries []int
}

// entry is a channel entry with its parsed range and its bundle's facts.
type entry struct {
	fbc.ChannelEntry
	skipRange  semver.Range // nil when absent or unparsable (both OLMs then ignore it)
	version    semver.Version
	release    release
	deprecated bool // named by olm.deprecations (OLM v1 sorts it last)
	prohibited bool // carries an olm.deprecated property (OLM v0 never installs it)
}

func newPackageChannel(p *fbc.ModelPackage, c *fbc.ModelChannel) *packageChannel {
	pc := &packageChannel{p: p, c: c, byName: map[string]int{}}
	pc.head, _ = graph.ChannelHead(c.Entries)
	deprecated := deprecatedBundles(p)
	for _, ce := range c.Entries {
		b := p.Bundles[ce.Name]
		if b == nil {
			continue
		}
		if _, dup := pc.byName[ce.Name]; dup {
			continue
		}
		e := entry{ChannelEntry: ce, version: b.Version, release: legacyRelease(b.Version),
			deprecated: deprecated[ce.Name], prohibited: hasProperty(b, "olm.deprecated")}
		if ce.SkipRange != "" {
			if r, err := semver.ParseRange(ce.SkipRange); err == nil {
				e.skipRange = r
			}
		}
		pc.byName[ce.Name] = len(pc.entries)
		pc.entries = append(pc.entries, e)
	}
	pc.index()
	pc.v0 = newV0Channel(pc)
	pc.v1 = &v1Channel{pc: pc}
	return pc
}

func (pc *packageChannel) index() {
	pc.byReplaces, pc.bySkips, pc.byVersion = map[string][]int{}, map[string][]int{}, map[string][]int{}
	group := map[string]int{}
	for i := range pc.entries {
		e := &pc.entries[i]
		if e.Replaces != "" {
			pc.byReplaces[e.Replaces] = append(pc.byReplaces[e.Replaces], i)
		}
		for _, s := range e.Skips {
			pc.bySkips[s] = append(pc.bySkips[s], i)
		}
		if e.skipRange != nil {
			g, ok := group[e.SkipRange]
			if !ok {
				g = len(pc.ranges)
				group[e.SkipRange] = g
				pc.ranges = append(pc.ranges, rangeGroup{r: e.skipRange})
			}
			pc.ranges[g].entries = append(pc.ranges[g].entries, i)
		}
		k := versionKey(e.version, e.release)
		pc.byVersion[k] = append(pc.byVersion[k], i)
	}
}

// versionKey identifies a version and release as compareVersionRelease compares them (build
// metadata other than the release ignored).
func versionKey(v semver.Version, r release) string {
	v.Build = nil
	var b strings.Builder
	b.WriteString(v.String())
	for _, p := range r {
		b.WriteString("|" + p.String())
	}
	return b.String()
}

// candidates returns, in channel order, the entries that upgrade in as both OLMs read an entry
// (they replace or skip its name, or their skipRange includes its version; resolver.go:244,
// predicates.go:196-220; successors.go:58-96) and,
// with sameVersion, those of its exact version and release. It costs the entries naming in and
// one evaluation of each distinct skipRange, not the channel's size.
func (pc *packageChannel) candidates(in installed, sameVersion bool) []int {
	var out []int
	if in.name != "" {
		out = append(out, pc.byReplaces[in.name]...)
		out = append(out, pc.bySkips[in.name]...)
	}
	for _, g := range pc.ranges {
		if g.r(in.version) {
			out = append(out, g.entries...)
		}
	}
	if sameVersion {
		out = append(out, pc.byVersion[versionKey(in.version, legacyRelease(in.version))]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (pc *packageChannel) has(name string) bool {
	_, ok := pc.byName[name]
	return ok
}

// releases returns the channel's bundles as installed releases, newest version first.
func (pc *packageChannel) releases() []installed {
	out := make([]installed, len(pc.entries))
	for i, e := range pc.entries {
		out[i] = installed{name: e.Name, version: e.version}
	}
	sortInstalled(out)
	return out
}

func (pc *packageChannel) result(starts []installed) ChannelResult {
	cr := ChannelResult{Name: pc.c.Name, Head: pc.head, V0Error: pc.v0.err, versions: pc.uniqueVersions()}
	deprecated := deprecatedBundles(pc.p)
	c0, c1 := pc.chains()
	for _, in := range starts {
		inPackage := in.name != "" && pc.p.Bundles[in.name] != nil
		r := Release{Name: in.name, Version: in.version.String(), NotInCatalog: !inPackage,
			NotInChannel: inPackage && !pc.has(in.name), Deprecated: deprecated[in.name]}
		r.V0Path, r.V0Elided, r.V0Stop = pc.v0.path(in, c0)
		if r.V0Stop == StopNoUpgrade {
			lastIn := in
			if n := last(r.V0Path); n != "" {
				lastIn = installed{name: n, version: pc.entries[pc.byName[n]].version}
			}
			r.V0Ignored = pc.v0.ignored(lastIn)
		}
		r.V1Path, r.V1Elided = pc.v1.path(in, c1)
		if len(r.V1Path) > 0 {
			r.V1Target = r.V1Path[0]
		}
		if n := last(r.V1Path); n != pc.head {
			lastIn := in
			if n != "" {
				lastIn = installed{name: n, version: pc.entries[pc.byName[n]].version}
			}
			r.V1Passed = pc.v1.passed(lastIn)
		}
		if pc.head != "" && in.name != pc.head {
			if last(r.V0Path) != pc.head {
				r.StrandedIn = append(r.StrandedIn, "v0")
			}
			if last(r.V1Path) != pc.head {
				r.StrandedIn = append(r.StrandedIn, "v1")
			}
		}
		if r.V0Path == nil {
			r.V0Path = []string{}
		}
		if r.V1Path == nil {
			r.V1Path = []string{}
		}
		if len(r.StrandedIn) > 0 {
			cr.Stranded = append(cr.Stranded, displayName(in))
		}
		cr.Releases = append(cr.Releases, r)
	}
	return cr
}

// chains are where OLM v0 and OLM v1 take every release of the channel.
func (pc *packageChannel) chains() (v0, v1 *chain) {
	return newChain(pc, pc.v0.step), newChain(pc, pc.v1.step)
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// displayName is a release's bundle name, or its version when the name is unknown.
func displayName(in installed) string {
	if in.name == "" {
		return in.version.String()
	}
	return in.name
}

func deprecatedBundles(p *fbc.ModelPackage) map[string]bool {
	out := map[string]bool{}
	if p.Deprecation == nil {
		return out
	}
	for _, e := range p.Deprecation.Entries {
		if e.Reference.Schema == fbc.SchemaBundle {
			out[e.Reference.Name] = true
		}
	}
	return out
}

func hasProperty(b *fbc.ModelBundle, typ string) bool {
	for _, p := range b.Blob.Properties {
		if p.Type == typ {
			return true
		}
	}
	return false
}

// uniqueVersions maps entry names to versions, or returns nil when two entries share a version.
func (pc *packageChannel) uniqueVersions() map[string]string {
	out := make(map[string]string, len(pc.entries))
	seen := make(map[string]bool, len(pc.entries))
	for _, e := range pc.entries {
		v := e.version.String()
		if seen[v] {
			return nil
		}
		seen[v] = true
		out[e.Name] = v
	}
	return out
}
