package fbc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Model is the validated view of a catalog: packages with their channels and the bundles
// the channels hold, built as opm's ConvertToModel builds its model.
type Model struct {
	Packages map[string]*ModelPackage
}

// ModelPackage is one package of the model.
type ModelPackage struct {
	Name           string
	Blob           *Package
	DefaultChannel string // "" when the package blob set none
	Channels       map[string]*ModelChannel
	Bundles        map[string]*ModelBundle // bundles listed in at least one channel
	Deprecation    *Deprecation
}

// ModelChannel is one channel; Entries keep the blob's order.
type ModelChannel struct {
	Name    string
	Package string
	Blob    *Channel // nil for a default channel opm synthesizes
	Entries []ChannelEntry
}

// ModelBundle is one bundle with its parsed properties and version.
type ModelBundle struct {
	Blob       *Bundle
	Props      *Properties
	Version    semver.Version
	Release    string
	HasVersion bool
	Channels   []string // sorted
}

// SortedPackages returns the package names sorted.
func (m *Model) SortedPackages() []string { return SortedKeys(m.Packages) }

// SortedChannels returns the channel names of the package sorted.
func (p *ModelPackage) SortedChannels() []string { return SortedKeys(p.Channels) }

func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Problem is one opm error: the path of objects it is about, opm's message and, where opack knows
// one, the fix.
type Problem struct {
	Pkg, Channel, Bundle string
	Msg                  string
	Fix                  string
}

// Convert builds the model, collecting every ConvertToModel error instead of the first.
func Convert(cfg *DeclarativeConfig) (*Model, []Problem) {
	m := &Model{Packages: map[string]*ModelPackage{}}
	var probs []Problem
	// A package declared more than once (several catalogs copied into one folder) is one error,
	// opm's first: its channels and bundles declared again are that same mistake, not more errors.
	dupPkgs := map[string]bool{}
	add := func(pkg, msg string, args ...any) {
		probs = append(probs, Problem{Pkg: pkg, Msg: fmt.Sprintf(msg, args...)})
	}
	addUnlessDup := func(pkg, msg string, args ...any) {
		if !dupPkgs[pkg] {
			add(pkg, msg, args...)
		}
	}
	for i := range cfg.Packages {
		p := &cfg.Packages[i]
		switch {
		case p.Name == "":
			add("", "config contains package with no name")
			continue
		case m.Packages[p.Name] != nil:
			if !dupPkgs[p.Name] {
				probs = append(probs, Problem{Pkg: p.Name, Msg: fmt.Sprintf("duplicate package %q", p.Name),
					Fix: "a catalog folder is one catalog: declare the package once in it; several catalogs belong in folders of their own (catalog diff also takes one catalog file)"})
			}
			dupPkgs[p.Name] = true
			continue
		}
		if errs := validation.IsDNS1123Label(p.Name); len(errs) > 0 {
			add(p.Name, "invalid package name %q: %v", p.Name, errs)
			continue
		}
		m.Packages[p.Name] = &ModelPackage{Name: p.Name, Blob: p, DefaultChannel: p.DefaultChannel,
			Channels: map[string]*ModelChannel{}, Bundles: map[string]*ModelBundle{}}
	}
	entryOwners := convertChannels(cfg, m, add, addUnlessDup)
	convertBundles(cfg, m, entryOwners, add, addUnlessDup)
	for _, name := range m.SortedPackages() {
		mp := m.Packages[name]
		if mp.DefaultChannel != "" && mp.Channels[mp.DefaultChannel] == nil {
			mp.Channels[mp.DefaultChannel] = &ModelChannel{Name: mp.DefaultChannel, Package: name}
		}
	}
	convertDeprecations(cfg, m, add)
	return m, probs
}

// convertChannels adds the channels to m; addDup reports a channel declared twice (silent for a
// package declared twice).
func convertChannels(cfg *DeclarativeConfig, m *Model, add, addDup func(string, string, ...any)) map[string]map[string][]string {
	// owners: package -> bundle name -> channels listing it
	owners := map[string]map[string][]string{}
	for i := range cfg.Channels {
		c := &cfg.Channels[i]
		mp := m.Packages[c.Package]
		switch {
		case mp == nil:
			add(c.Package, "unknown package %q for channel %q", c.Package, c.Name)
			continue
		case c.Name == "":
			add(c.Package, "package %q contains channel with no name", c.Package)
			continue
		case mp.Channels[c.Name] != nil:
			addDup(c.Package, "package %q has duplicate channel %q", c.Package, c.Name)
			continue
		}
		seen := map[string]bool{}
		dup := false
		for _, e := range c.Entries {
			if seen[e.Name] {
				add(c.Package, "invalid package %q, channel %q: duplicate entry %q", c.Package, c.Name, e.Name)
				dup = true
			}
			seen[e.Name] = true
		}
		if dup {
			continue
		}
		mp.Channels[c.Name] = &ModelChannel{Name: c.Name, Package: c.Package, Blob: c, Entries: c.Entries}
		if owners[c.Package] == nil {
			owners[c.Package] = map[string][]string{}
		}
		for _, e := range c.Entries {
			owners[c.Package][e.Name] = append(owners[c.Package][e.Name], c.Name)
		}
	}
	return owners
}

// convertBundles adds the bundles to m; addDup reports a bundle declared twice (silent for a
// package declared twice).
func convertBundles(cfg *DeclarativeConfig, m *Model, owners map[string]map[string][]string, add, addDup func(string, string, ...any)) {
	found := map[string]map[string]bool{}
	for i := range cfg.Bundles {
		b := &cfg.Bundles[i]
		mb, ok := convertBundle(b, m, owners, add, addDup)
		if !ok {
			continue
		}
		if found[b.Package] == nil {
			found[b.Package] = map[string]bool{}
		}
		found[b.Package][b.Name] = true
		m.Packages[b.Package].Bundles[b.Name] = mb
	}
	for _, pkg := range SortedKeys(owners) {
		var missing []string
		for name := range owners[pkg] {
			if !found[pkg][name] {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			add(pkg, "no olm.bundle blobs found in package %q for olm.channel entries %s", pkg, missing)
		}
	}
}

func convertBundle(b *Bundle, m *Model, owners map[string]map[string][]string, add, addDup func(string, string, ...any)) (*ModelBundle, bool) {
	mp := m.Packages[b.Package]
	switch {
	case b.Package == "":
		add("", "package name must be set for bundle %q", b.Name)
		return nil, false
	case mp == nil:
		add(b.Package, "unknown package %q for bundle %q", b.Package, b.Name)
		return nil, false
	case mp.Bundles[b.Name] != nil:
		addDup(b.Package, "package %q has duplicate bundle %q", b.Package, b.Name)
		return nil, false
	}
	props, err := ParseProperties(b.Properties)
	if err != nil {
		add(b.Package, "parse properties for bundle %q: %v", b.Name, err)
		return nil, false
	}
	if len(props.Packages) != 1 {
		add(b.Package, "package %q bundle %q must have exactly 1 %q property, found %d", b.Package, b.Name, TypePackage, len(props.Packages))
		return nil, false
	}
	pp := props.Packages[0]
	if pp.PackageName != b.Package {
		add(b.Package, "package %q does not match %q property %q", b.Package, TypePackage, pp.PackageName)
		return nil, false
	}
	ok := true
	if b.Image != "" {
		if err := parseImageRef(b.Image); err != nil {
			add(b.Package, "package %q bundle %q image: invalid image pull spec %q: %v", b.Package, b.Name, b.Image, err)
			ok = false
		}
	}
	for i, ri := range b.RelatedImages {
		if ri.Image == "" {
			continue
		}
		if err := parseImageRef(ri.Image); err != nil {
			add(b.Package, "package %q bundle %q relatedImages[%d].image: invalid image pull spec %q: %v", b.Package, b.Name, i, ri.Image, err)
			ok = false
		}
	}
	v, err := semver.Parse(pp.Version)
	if err != nil {
		add(b.Package, "error parsing bundle %q version %q: %v", b.Name, pp.Version, err)
		return nil, false
	}
	if pp.Release != "" {
		if err := parseRelease(pp.Release); err != nil {
			add(b.Package, "error parsing bundle %q release version %q: %v", b.Name, pp.Release, err)
			return nil, false
		}
	}
	chans := owners[b.Package][b.Name]
	if len(chans) == 0 {
		addDup(b.Package, "package %q, bundle %q not found in any channel entries", b.Package, b.Name)
		return nil, false
	}
	if !ok {
		return nil, false
	}
	chans = append([]string(nil), chans...)
	sort.Strings(chans)
	return &ModelBundle{Blob: b, Props: props, Version: v, Release: pp.Release, HasVersion: true, Channels: chans}, true
}

// parseRelease checks a release: dot-separated semver prerelease identifiers.
func parseRelease(rel string) error {
	for i, seg := range strings.Split(rel, ".") {
		if _, err := semver.NewPRVersion(seg); err != nil {
			return fmt.Errorf("invalid release %q: segment %d: %w", rel, i, err)
		}
	}
	return nil
}

func convertDeprecations(cfg *DeclarativeConfig, m *Model, add func(string, string, ...any)) {
	for i := range cfg.Deprecations {
		d := &cfg.Deprecations[i]
		mp := m.Packages[d.Package]
		switch {
		case d.Package == "":
			add("", "package name must be set for deprecation item %v", i)
			continue
		case mp == nil:
			add(d.Package, "cannot apply deprecations to an unknown package %q", d.Package)
			continue
		case mp.Deprecation != nil:
			add(d.Package, "expected a maximum of one deprecation per package: %q", d.Package)
			continue
		}
		mp.Deprecation = d
		seen := map[PackageScopedReference]bool{}
		for j, e := range d.Entries {
			ref := e.Reference
			if ref.Schema == "" {
				add(d.Package, "schema must be set for deprecation entry [%d] for package %q", j, d.Package)
				continue
			}
			if seen[ref] {
				add(d.Package, "duplicate deprecation entry %s for package %q", goSyntax(ref), d.Package)
				continue
			}
			seen[ref] = true
			switch ref.Schema {
			case SchemaBundle:
				if mp.Bundles[ref.Name] == nil {
					add(d.Package, "cannot deprecate bundle %q for package %q: bundle not found", ref.Name, d.Package)
				}
			case SchemaChannel:
				if mp.Channels[ref.Name] == nil {
					add(d.Package, "cannot deprecate channel %q for package %q: channel not found", ref.Name, d.Package)
				}
			case SchemaPackage:
				if ref.Name != "" {
					add(d.Package, "package name must be empty for deprecated package %q (specified %q)", d.Package, ref.Name)
				}
			default:
				add(d.Package, "cannot deprecate object %s referenced by entry %v for package %q: object schema unknown", goSyntax(ref), j, d.Package)
			}
		}
	}
}

// goSyntax prints a reference as opm's %#v of declcfg.PackageScopedReference.
func goSyntax(r PackageScopedReference) string {
	return fmt.Sprintf("declcfg.PackageScopedReference{Schema:%q, Name:%q}", r.Schema, r.Name)
}

// Object names the package, channel and bundle a problem is about.
func (p Problem) Object() string {
	var parts []string
	if p.Pkg != "" {
		parts = append(parts, fmt.Sprintf("package %q", p.Pkg))
	}
	if p.Channel != "" {
		parts = append(parts, fmt.Sprintf("channel %q", p.Channel))
	}
	if p.Bundle != "" {
		parts = append(parts, fmt.Sprintf("bundle %q", p.Bundle))
	}
	return strings.Join(parts, " ")
}

// BundleVersion returns the bundle's one olm.package property and its version, with opm's
// messages when the bundle has none, several, or an invalid version.
func BundleVersion(b *Bundle) (PackageProperty, semver.Version, error) {
	props, err := ParseProperties(b.Properties)
	if err != nil {
		return PackageProperty{}, semver.Version{}, fmt.Errorf("parse properties for bundle %q: %v", b.Name, err)
	}
	if len(props.Packages) != 1 {
		return PackageProperty{}, semver.Version{}, fmt.Errorf("bundle %q has %d %q properties, expected exactly 1", b.Name, len(props.Packages), TypePackage)
	}
	v, err := semver.Parse(props.Packages[0].Version)
	if err != nil {
		return PackageProperty{}, semver.Version{}, fmt.Errorf("bundle %q has invalid version %q: %v", b.Name, props.Packages[0].Version, err)
	}
	return props.Packages[0], v, nil
}
