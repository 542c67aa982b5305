package diff

import (
	"slices"
	"strings"

	"github.com/opack/opack/internal/catalog/upgrades"
	"github.com/opack/opack/internal/fbc"
)

// upgradeChanges compares, for every release of every channel of BASE, where OLM v0 and OLM v1
// take it in BASE and in HEAD (a release HEAD no longer holds is followed as an installed
// release the catalog does not have). A release that reached the head and no longer does is
// newly stranded; the releases of a channel HEAD removed as a whole are not: that removal is
// deliberate, and removalFindings reports it.
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
		var byName map[string]*upgrades.Release
		if ac != nil {
			byName = make(map[string]*upgrades.Release, len(ac.Releases))
			for i := range ac.Releases {
				byName[ac.Releases[i].Name] = &ac.Releases[i]
			}
		}
		for _, br := range bc.Releases {
			// The head too: a release added after it is where its installs go next (or, when the
			// head is removed or left behind, where they no longer go).
			ar, removed := afterRelease(mHead, p, bc.Name, ac, byName, br)
			if ar == nil {
				if len(br.StrandedIn) == 0 && hp != nil && hp.Channels[bc.Name] != nil {
					stranded = append(stranded, Stranded{Channel: bc.Name, Release: br.Name, Version: br.Version, Removed: removed,
						StrandedIn: []string{"v0", "v1"}, Why: "HEAD gives it no upgrade in the channel"})
				}
				continue
			}
			pc := PathChange{Channel: bc.Name, From: br.Name, Version: br.Version, Removed: removed,
				V0Before: nonNil(br.V0Path), V0After: nonNil(ar.V0Path), V0StopBefore: br.V0Stop, V0StopAfter: ar.V0Stop,
				V1Before: nonNil(br.V1Path), V1After: nonNil(ar.V1Path),
				V0ElidedBefore: br.V0Elided, V0ElidedAfter: ar.V0Elided, V1ElidedBefore: br.V1Elided, V1ElidedAfter: ar.V1Elided}
			if pc.v0Changed() || pc.v1Changed() {
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

// v0Changed reports whether OLM v0's path (as listed, with its elided count) differs.
func (pc *PathChange) v0Changed() bool {
	return !slices.Equal(pc.V0Before, pc.V0After) || pc.V0ElidedBefore != pc.V0ElidedAfter
}

// v1Changed reports whether OLM v1's path differs.
func (pc *PathChange) v1Changed() bool {
	return !slices.Equal(pc.V1Before, pc.V1After) || pc.V1ElidedBefore != pc.V1ElidedAfter
}

// noHead says why a channel of HEAD leaves every release where it is.
func noHead(c *upgrades.ChannelResult) string {
	if c.V0Error != "" {
		return "OLM v0 cannot resolve in the channel: " + c.V0Error
	}
	return "the channel has no single head"
}

// afterRelease finds release br of channel cn in HEAD; removed says HEAD no longer holds it.
func afterRelease(mHead *fbc.Model, p, cn string, ac *upgrades.ChannelResult, byName map[string]*upgrades.Release, br upgrades.Release) (*upgrades.Release, bool) {
	if ac == nil {
		return nil, mHead.Packages[p] == nil || mHead.Packages[p].Bundles[br.Name] == nil
	}
	if r, ok := byName[br.Name]; ok {
		return r, false
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
