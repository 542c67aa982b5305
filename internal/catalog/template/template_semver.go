package template

import (
	"context"
	"fmt"
	"sort"

	"github.com/blang/semver/v4"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/catalog/render"
	"github.com/opack/opack/internal/fbc"
)

// Stream types of the semver template: channels per major or per minor version.
const (
	streamDefault = ""
	streamMinor   = "minor"
	streamMajor   = "major"
)

// streamPriorities: minor channels are generally preferred.
var streamPriorities = map[string]int{streamMinor: 2, streamMajor: 1, streamDefault: 0}

// Channel archetypes, from least to most stable.
var archetypes = []string{"candidate", "fast", "stable"}

var archetypePriority = map[string]int{"candidate": 0, "fast": 1, "stable": 2}

type semverBundleEntry struct {
	Image string `json:"image,omitempty"`
}

type semverChannelBundles struct {
	Bundles []semverBundleEntry `json:"bundles,omitempty"`
}

// semverTemplate is an olm.semver document. Keys are matched case-insensitively; unknown
// keys are errors.
type semverTemplate struct {
	Schema                       string               `json:"schema"`
	GenerateMajorChannels        bool                 `json:"generateMajorChannels,omitempty"`
	GenerateMinorChannels        bool                 `json:"generateMinorChannels,omitempty"`
	DefaultChannelTypePreference string               `json:"defaultChannelTypePreference,omitempty"`
	Candidate                    semverChannelBundles `json:"candidate,omitempty"`
	Fast                         semverChannelBundles `json:"fast,omitempty"`
	Stable                       semverChannelBundles `json:"stable,omitempty"`
}

func (t *semverTemplate) archetype(a string) []semverBundleEntry {
	switch a {
	case "candidate":
		return t.Candidate.Bundles
	case "fast":
		return t.Fast.Bundles
	}
	return t.Stable.Bundles
}

// parseSemverTemplate reads and checks a semver template, filling in opm's defaults.
func parseSemverTemplate(data []byte) (*semverTemplate, error) {
	sv := &semverTemplate{}
	if err := yaml.UnmarshalStrict(data, sv); err != nil {
		return nil, err
	}
	if sv.Schema != schemaSemverTemplate {
		return nil, fmt.Errorf("readFile: input file has unknown schema, should be %q", schemaSemverTemplate)
	}
	if !sv.GenerateMajorChannels && !sv.GenerateMinorChannels {
		sv.GenerateMinorChannels = true
	}
	switch sv.DefaultChannelTypePreference {
	case streamDefault:
		if sv.GenerateMinorChannels {
			sv.DefaultChannelTypePreference = streamMinor
		} else {
			sv.DefaultChannelTypePreference = streamMajor
		}
	case streamMinor:
		if !sv.GenerateMinorChannels {
			return nil, fmt.Errorf("schema attribute mismatch: DefaultChannelTypePreference set to 'minor' doesn't make sense if not generating minor-version channels")
		}
	case streamMajor:
		if !sv.GenerateMajorChannels {
			return nil, fmt.Errorf("schema attribute mismatch: DefaultChannelTypePreference set to 'major' doesn't make sense if not generating major-version channels")
		}
	default:
		return nil, fmt.Errorf("unknown DefaultChannelTypePreference: %q\nValid values are 'major' or 'minor'", sv.DefaultChannelTypePreference)
	}
	return sv, nil
}

// renderSemverTemplate renders the template's bundles and generates channels from their versions.
func renderSemverTemplate(ctx context.Context, data []byte, renderBundle BundleRenderer) (*fbc.DeclarativeConfig, error) {
	sv, err := parseSemverTemplate(data)
	if err != nil {
		return nil, fmt.Errorf("render: unable to read file: %v", err)
	}
	var refs []string
	seen := map[string]bool{}
	for _, a := range archetypes {
		for _, b := range sv.archetype(a) {
			if !seen[b.Image] {
				seen[b.Image] = true
				refs = append(refs, b.Image)
			}
		}
	}
	rendered, err := renderRefs(ctx, refs, renderBundle)
	if err != nil {
		return nil, err
	}
	out := &fbc.DeclarativeConfig{}
	bundleOf := map[string]*fbc.Bundle{}
	for _, ref := range refs {
		c := rendered[ref]
		if len(c.Bundles) != 1 {
			return nil, fmt.Errorf("bundle reference %q resulted in %d bundles, expected 1", ref, len(c.Bundles))
		}
		render.AppendConfig(out, c)
		bundleOf[ref] = &c.Bundles[0]
	}
	if len(out.Bundles) == 0 {
		return nil, fmt.Errorf("render: no bundles specified or no bundles could be rendered")
	}
	g := &semverGen{sv: sv}
	versions := map[string]map[string]semver.Version{}
	for _, a := range archetypes {
		v, err := g.versionsOf(sv.archetype(a), bundleOf, out)
		if err != nil {
			return nil, fmt.Errorf("render: unable to post-process bundle info: %v", err)
		}
		versions[a] = v
	}
	out.Channels = g.generateChannels(versions)
	out.Packages[0].DefaultChannel = g.defaultChannel
	return out, nil
}

// semverGen holds the state of channel generation.
type semverGen struct {
	sv             *semverTemplate
	pkg            string
	defaultChannel string
}

// versionsOf maps the bundle names of one archetype to their versions, checking that all
// belong to one package; the first bundle seen names the package.
func (g *semverGen) versionsOf(entries []semverBundleEntry, bundleOf map[string]*fbc.Bundle, out *fbc.DeclarativeConfig) (map[string]semver.Version, error) {
	versions := map[string]semver.Version{}
	for _, e := range entries {
		b := bundleOf[e.Image]
		pkg, v, err := fbc.BundleVersion(b)
		if err != nil {
			return nil, err
		}
		if g.pkg == "" {
			g.pkg = pkg.PackageName
			out.Packages = append(out.Packages, fbc.Package{Schema: fbc.SchemaPackage, Name: g.pkg})
		} else if pkg.PackageName != g.pkg {
			return nil, fmt.Errorf("bundle %q does not belong to this package: %q", pkg.PackageName, g.pkg)
		}
		if _, dup := versions[b.Name]; dup {
			return nil, fmt.Errorf("duplicate bundle name %q", b.Name)
		}
		versions[b.Name] = v
	}
	return versions, checkBuildMetadata(versions)
}

// checkBuildMetadata refuses versions that differ only by build metadata: they cannot be ordered.
func checkBuildMetadata(versions map[string]semver.Version) error {
	seen := map[string]bool{}
	var errs []error
	for _, name := range sortedNames(versions) {
		v := versions[name]
		stripped := v
		stripped.Build = nil
		s := stripped.String()
		if seen[s] {
			errs = append(errs, fmt.Errorf("bundle version %q cannot be compared to %q", v.String(), s))
		}
		seen[s] = true
	}
	if len(errs) != 0 {
		return fmt.Errorf("encountered bundle versions which differ only by build metadata, which cannot be ordered: %v", utilerrors.NewAggregate(errs))
	}
	return nil
}

func sortedNames(versions map[string]semver.Version) []string {
	names := make([]string, 0, len(versions))
	for n := range versions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
