package upgrades

import (
	"slices"
	"strings"

	"github.com/blang/semver/v4"
)

// release is a registry+v1 bundle's release as OLM v1 reads it: the build metadata of its
// version when it parses as one (bundleutil.ParseLegacyVersionRelease).
type release []semver.PRVersion

func legacyRelease(v semver.Version) release {
	if len(v.Build) == 0 {
		return nil
	}
	var r release
	for _, seg := range strings.Split(strings.Join(v.Build, "."), ".") {
		pr, err := semver.NewPRVersion(seg)
		if err != nil {
			return nil
		}
		r = append(r, pr)
	}
	return r
}

// compareVersionRelease is model.VersionRelease.Compare: version (build metadata ignored), then
// release, an empty release lowest.
func compareVersionRelease(a semver.Version, ar release, b semver.Version, br release) int {
	if c := a.Compare(b); c != 0 {
		return c
	}
	switch {
	case len(ar) == 0 && len(br) > 0:
		return -1
	case len(br) == 0 && len(ar) > 0:
		return 1
	}
	return semver.Version{Pre: ar}.Compare(semver.Version{Pre: br})
}

// v1Channel is a channel as operator-controller's resolver sees it with
// spec.source.catalog.channels set to this one channel.
type v1Channel struct {
	pc *packageChannel
}

// step returns the bundle OLM v1 resolves to from in (-1 when none): among the channel's
// bundles that are successors of in (replaces or skips its name, or a skipRange that includes
// its version; successors.go:58-96) or have exactly its version and release (successors.go:52-55),
// the first after sorting non-deprecated first, then highest version and release
// (resolve/catalog.go:139-146).
func (v *v1Channel) step(in installed) int {
	best := -1
	for _, i := range v.pc.candidates(in, true) { // successors and its exact version, in channel order
		e := &v.pc.entries[i]
		if best < 0 || v1Before(e, &v.pc.entries[best]) {
			best = i
		}
	}
	return best
}

// v1Before reports whether a sorts before b (SortStableFunc keeps catalog order on ties).
func v1Before(a, b *entry) bool {
	if a.deprecated != b.deprecated {
		return !a.deprecated
	}
	return compareVersionRelease(a.version, a.release, b.version, b.release) > 0
}

// path returns the bundle OLM v1 resolves to from in and the ones it moves on to after
// installing it (each reconcile resolves again from the installed bundle), until it stays (as
// chain.path lists them: a long path elided).
func (v *v1Channel) path(in installed, c *chain) ([]string, int) {
	if i, ok := v.pc.byName[in.name]; ok {
		return c.path(i)
	}
	first := v.step(in)
	if first >= 0 && v.pc.entries[first].Name == in.name {
		first = -1
	}
	path, elided, _ := c.pathFrom(first)
	return path, elided
}

// sortInstalled sorts releases newest first (then by name).
func sortInstalled(s []installed) {
	slices.SortStableFunc(s, func(a, b installed) int {
		if c := compareVersionRelease(b.version, legacyRelease(b.version), a.version, legacyRelease(a.version)); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
}

// passed explains, for a release where OLM v1 stays short of the head, its successors that OLM
// v1 does not pick, and why ("" when it has none).
func (v *v1Channel) passed(in installed) string {
	inRel := legacyRelease(in.version)
	var lower, deprecated []string
	for _, i := range v.pc.candidates(in, false) {
		e := &v.pc.entries[i]
		if e.Name == in.name {
			continue
		}
		switch {
		case compareVersionRelease(e.version, e.release, in.version, inRel) <= 0:
			lower = append(lower, e.Name)
		case e.deprecated:
			deprecated = append(deprecated, e.Name)
		}
	}
	var notes []string
	if len(lower) > 0 {
		notes = append(notes, "successor "+strings.Join(lower, ", ")+" has a version not above it (the highest version wins)")
	}
	if len(deprecated) > 0 {
		notes = append(notes, "successor "+strings.Join(deprecated, ", ")+" is deprecated (sorted after the installed bundle)")
	}
	return strings.Join(notes, "; ")
}
