package check

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/parallel"
)

// edgeCheck is the CRD verdict on one upgrade edge (From → To of a package).
type edgeCheck struct {
	key      graph.EdgeKey
	kinds    []string // "replaces in channel \"stable\"", ...
	items    []edgeItem
	unsafe   string // first error, "" when safe
	old, new crdResult
}

// edgeItem is one change an edge makes. Identical changes (same key) on several edges of a
// package are reported once, listing the edges.
type edgeItem struct {
	// rule, crd and version identify a crd.Compare finding.
	rule          crd.Rule
	crd, version  string
	sev, semantic finding.Severity // printed, and what the change itself does (crd.Finding.Semantic)
	key           string           // the change, without the edge
	text          string
	paths         []string    // the schema paths of the change, several for echoes (crd.FoldEchoes)
	old, new      string      // the values before and after the change (crd.Finding.Old, New)
	fix, actor    string      // what to do, and who refuses the change or breaks (crd.Finding.Fix, Actor)
	actors        []string    // every actor that refuses it (crd.Finding.Actors)
	drop          *storedDrop // for stored-version drops: the path, rendered per edge
}

// CheckEdges runs the CRD upgrade checker on every distinct edge of g (old = From's CRDs,
// new = To's CRDs) and finds the edges that drop a version a cluster upgraded along the graph
// can still have stored. It returns the findings (identical changes on several edges of a
// package as one finding) and the unsafe edges with their reason (for graph output).
func CheckEdges(ctx context.Context, m *fbc.Model, g *graph.Graph, src CRDSource) ([]finding.Finding, map[graph.EdgeKey]string) {
	return checkEdges(ctx, m, g, src, nil, false)
}

func checkEdges(ctx context.Context, m *fbc.Model, g *graph.Graph, src CRDSource, progress func(done, total int), perEdge bool) ([]finding.Finding, map[graph.EdgeKey]string) {
	if src == nil {
		src = ObjectCRDs{}
	}
	cache := &crdCache{src: src, m: m, got: map[string]map[string]*crdEntry{}}
	edges := map[graph.EdgeKey]*edgeCheck{}
	var order []*edgeCheck
	over := overEdgeLimit(ctx, m, g, cache)
	for e := range g.All() {
		if _, skip := over[e.Package]; skip {
			continue
		}
		k := graph.EdgeKey{Package: e.Package, From: e.From, To: e.To}
		ec := edges[k]
		if ec == nil {
			ec = &edgeCheck{key: k}
			edges[k] = ec
			order = append(order, ec)
		}
		ec.kinds = append(ec.kinds, fmt.Sprintf("%s in channel %q", e.Kind, e.Channel))
	}
	// Edges are checked package by package (in parallel within and across packages) and a
	// package's decoded CRDs are dropped when its last edge is done: memory follows the largest
	// packages being checked, not the catalog. What the stored-version reasoning needs of each
	// bundle (its CRDs' versions) is kept.
	byPkg := packageOrder(order)
	left := map[string]*atomic.Int64{}
	for _, ec := range order {
		if left[ec.key.Package] == nil {
			left[ec.key.Package] = &atomic.Int64{}
		}
		left[ec.key.Package].Add(1)
	}
	bundleLeft := planReleases(m, byPkg, cache)
	vs := &versionIndex{m: map[string]map[string]map[string]crdVersions{}}
	budget := newEdgeBudget(edgeBudgetBytes)
	parallel.ForEach(ctx, len(byPkg), progress, func(i int) {
		ec := byPkg[i]
		dec := cache.decoder(ec.key.Package)
		w := edgeWeight(m, dec, ec.key.Package, ec.key.From, ec.key.To)
		budget.acquire(w)
		defer budget.release(w)
		ec.old = cache.get(ctx, ec.key.Package, ec.key.From, nil)
		ec.new = cache.get(ctx, ec.key.Package, ec.key.To, ec.old.index)
		vs.note(ec.key.Package, ec.old)
		vs.note(ec.key.Package, ec.new)
		if ec.old.ok && ec.new.ok {
			ec.check(ctx, dec, !perEdge)
		}
		dec.done(ec.old.sums, ec.new.sums)
		ec.old.crds, ec.new.crds, ec.old.sums, ec.new.sums, ec.old.index, ec.new.index = nil, nil, nil, nil, nil, nil
		for _, b := range []string{ec.key.From, ec.key.To} {
			if bundleLeft[ec.key.Package][b].Add(-1) == 0 {
				cache.release(ec.key.Package, b)
			}
		}
		if left[ec.key.Package].Add(-1) == 0 {
			cache.drop(ec.key.Package)
		}
	})
	addStoredDrops(order, edges, vs.m)
	var out []finding.Finding
	unsafe := map[graph.EdgeKey]string{}
	unchecked := map[string]int{}
	for _, pkg := range fbc.SortedKeys(over) {
		if n := over[pkg]; n < 0 {
			unchecked[pkg] = -n
		} else {
			out = append(out, edgeLimitFinding(pkg, n))
		}
	}
	reported := map[string]bool{}
	var checked []*edgeCheck
	for _, ec := range order {
		k := ec.key
		for _, r := range []crdResult{ec.old, ec.new} {
			if r.err != nil && !reported[r.bundle] {
				reported[r.bundle] = true
				out = append(out, finding.Errorf("", bundleObject(k.Package, r.bundle), ruleCRD, "reading CRDs: %v", r.err))
			}
		}
		if !ec.old.ok || !ec.new.ok {
			unchecked[k.Package]++
			continue
		}
		checked = append(checked, ec)
		if ec.unsafe != "" {
			unsafe[k] = ec.unsafe
		}
	}
	out = append(out, edgeFindings(checked, perEdge)...)
	for _, pkg := range fbc.SortedKeys(unchecked) {
		out = append(out, finding.Finding{Severity: finding.SeverityInfo, Object: fmt.Sprintf("package %q", pkg), Rule: ruleCRD,
			Message: fmt.Sprintf("%d upgrade edge(s) not checked for CRD safety: the CRDs of their bundles are not in the catalog (no olm.bundle.object); pass the bundle folders or --pull", unchecked[pkg])})
	}
	return out, unsafe
}

// planReleases counts the edges of each bundle and the uses of each CRD by the edges (see
// decodeCache.plan), so that a bundle's CRDs are forgotten after its last edge and a decoded
// CRD after the last edge that uses it: within a package, memory follows the edges being
// checked (edges are handed out in channel order), not the package.
func planReleases(m *fbc.Model, byPkg []*edgeCheck, cache *crdCache) map[string]map[string]*atomic.Int64 {
	left := map[string]map[string]*atomic.Int64{}
	edges := map[string][][2]string{}
	for _, ec := range byPkg {
		k := ec.key
		if left[k.Package] == nil {
			left[k.Package] = map[string]*atomic.Int64{}
		}
		for _, b := range []string{k.From, k.To} {
			if left[k.Package][b] == nil {
				left[k.Package][b] = &atomic.Int64{}
			}
			left[k.Package][b].Add(1)
		}
		edges[k.Package] = append(edges[k.Package], [2]string{k.From, k.To})
	}
	for pkg, es := range edges {
		dec := cache.decoder(pkg)
		sums := map[string][]crdSum{}
		for b := range left[pkg] {
			if mb := m.Packages[pkg].Bundles[b]; mb != nil {
				for _, c := range dec.candidates(mb.Blob) {
					sums[b] = append(sums[b], c.sum)
				}
			}
		}
		dec.plan(es, sums)
	}
	return left
}

// versionIndex collects, per package and bundle, the versions of the bundle's CRDs.
type versionIndex struct {
	mu sync.Mutex
	m  map[string]map[string]map[string]crdVersions // package → bundle → CRD → versions
}

func (b *versionIndex) note(pkg string, r crdResult) {
	if !r.ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m[pkg] == nil {
		b.m[pkg] = map[string]map[string]crdVersions{}
	}
	if _, done := b.m[pkg][r.bundle]; !done {
		b.m[pkg][r.bundle] = versionsOf(r.crds)
	}
}

// addStoredDrops adds to each edge the stored versions it drops (storedDrops, per package).
func addStoredDrops(order []*edgeCheck, edges map[graph.EdgeKey]*edgeCheck, versions map[string]map[string]map[string]crdVersions) {
	pkgEdges := map[string][][2]string{}
	for _, ec := range order {
		pkgEdges[ec.key.Package] = append(pkgEdges[ec.key.Package], [2]string{ec.key.From, ec.key.To})
	}
	for _, pkg := range fbc.SortedKeys(pkgEdges) {
		for _, d := range storedDrops(pkgEdges[pkg], versions[pkg]) {
			ec := edges[graph.EdgeKey{Package: pkg, From: d.from, To: d.to}]
			ec.dropVersionRemoved(d.crd, d.version)
			drop := d
			ec.add(edgeItem{sev: finding.SeverityError, semantic: finding.SeverityError, key: "stored\x00" + d.crd + "\x00" + d.version + "\x00" + d.to, drop: &drop,
				crd: d.crd, version: d.version, paths: []string{"spec.versions"}, actor: string(crd.ActorAPIServer),
				actors: crd.Finding{Rule: crd.RuleStoredVersionRemoved, Actor: crd.ActorAPIServer}.Actors()}, d.message())
		}
	}
}

// packageOrder is order grouped by package (packages in order of first appearance).
func packageOrder(order []*edgeCheck) []*edgeCheck {
	out := make([]*edgeCheck, 0, len(order))
	groups := map[string][]*edgeCheck{}
	var pkgs []string
	for _, ec := range order {
		if groups[ec.key.Package] == nil {
			pkgs = append(pkgs, ec.key.Package)
		}
		groups[ec.key.Package] = append(groups[ec.key.Package], ec)
	}
	for _, p := range pkgs {
		out = append(out, groups[p]...)
	}
	return out
}

// check compares the edge's CRDs; with fold, echoes (one change made to identical copies of a
// struct, crd.FoldEchoes) are one item naming the first path and how many more.
func (ec *edgeCheck) check(ctx context.Context, dec *decodeCache, fold bool) {
	// The API server's update validation (rule apiserver, warnings by default) is left to
	// `opack validate crds` and the build's check against the previous release: on every edge
	// of a catalog it would cost ~30x the comparison itself, and each CRD is validated on its own
	// by `opack validate bundle`. Stored versions are judged along the graph (addStoredDrops), not
	// from the old CRD alone.
	noStored := crd.Policy{crd.RuleStoredVersionRemoved: crd.SeverityOff}
	fs := compareEdge(ctx, dec, ec.old, ec.new, crd.WithAPIServerValidation(false), crd.WithPolicy(noStored))
	groups := make([][]crd.Finding, 0, len(fs))
	if fold {
		groups = crd.FoldEchoes(fs)
	} else {
		for _, f := range fs {
			groups = append(groups, []crd.Finding{f})
		}
	}
	for _, g := range groups {
		f := g[0]
		var paths []string
		if f.Path != "" {
			for _, e := range g {
				paths = append(paths, e.Path)
			}
		}
		if len(g) > 1 {
			f.Path = fmt.Sprintf("%s and %d more places", f.Path, len(g)-1)
		}
		text := f.String() + " [" + string(f.Rule) + "]"
		if f.Fix != "" {
			text += "; fix: " + f.Fix
		}
		key := text
		if len(g) > 1 {
			key += "\x00" + strings.Join(paths, "\x00")
		}
		ec.add(edgeItem{rule: f.Rule, crd: f.CRD, version: f.Version, sev: f.Severity.FindingSeverity(), semantic: f.Semantic.FindingSeverity(), key: key, text: text, paths: paths,
			old: f.Old, new: f.New, fix: f.Fix, actor: string(f.Actor), actors: f.Actors()}, f.String())
	}
}

// dropVersionRemoved forgets the version-removed warning for a version whose removal is a
// stored-version error: one finding per change.
func (ec *edgeCheck) dropVersionRemoved(name, version string) {
	kept := ec.items[:0]
	for _, it := range ec.items {
		if it.rule != crd.RuleVersionRemoved || it.crd != name || it.version != version {
			kept = append(kept, it)
		}
	}
	ec.items = kept
}

func (ec *edgeCheck) add(it edgeItem, reason string) {
	for _, have := range ec.items {
		if have.key == it.key {
			return
		}
	}
	ec.items = append(ec.items, it)
	if it.sev == finding.SeverityError && ec.unsafe == "" {
		ec.unsafe = reason
	}
}

func bundleObject(pkg, bundle string) string {
	return fmt.Sprintf("package %q bundle %q", pkg, bundle)
}
