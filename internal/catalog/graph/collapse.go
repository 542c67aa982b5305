package graph

import (
	"fmt"

	"github.com/blang/semver/v4"
)

// MaxDrawnEdges is the most edges WriteMermaid and WriteDot draw one by one: above it a
// drawing is megabytes of lines no one can read (5,000 releases each with `skipRange: <1.0.i`
// are 12.5 million edges). GraphOptions.CollapseRanges draws each range as one edge.
const MaxDrawnEdges = 100_000

// CheckDrawable refuses a graph whose edges (of package pkg, or of all packages when pkg is
// "") are more than MaxDrawnEdges unless ranges are collapsed.
func CheckDrawable(g *Graph, pkg string, o GraphOptions) error {
	if o.CollapseRanges {
		return nil
	}
	n := g.Len()
	if pkg != "" {
		n = g.PackageLen(pkg)
	}
	if n <= MaxDrawnEdges {
		return nil
	}
	return fmt.Errorf("drawing the upgrade graph: %d edges, more than the %d drawn one by one (skipRange and skips make an edge from every release they cover); collapse each skipRange into one edge (--collapse-ranges) or draw one package (--package)", n, MaxDrawnEdges)
}

// collapsedLabel labels the one edge drawn for a skipRange of entry to covering the releases
// covered: the range, how many releases and which span, and how many of those edges are unsafe
// (with the first reason). unsafe reports whether any is.
func collapsedLabel(pkg, rng, to string, covered []string, version func(string) semver.Version, unsafeEdges map[EdgeKey]string) (string, bool) {
	lo, hi := covered[0], covered[0]
	bad, reason := 0, ""
	for _, n := range covered {
		if version(n).LT(version(lo)) {
			lo = n
		}
		if version(n).GT(version(hi)) {
			hi = n
		}
		if r, ok := unsafeEdges[EdgeKey{pkg, n, to}]; ok {
			if bad == 0 {
				reason = r
			}
			bad++
		}
	}
	label := fmt.Sprintf("skipRange(%s)", rng)
	if len(covered) > 1 {
		label += fmt.Sprintf(": %d releases, %s to %s", len(covered), version(lo), version(hi))
	}
	if bad > 0 {
		label += fmt.Sprintf("; %d unsafe: %s", bad, reason)
	}
	return label, bad > 0
}
