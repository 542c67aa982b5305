package check

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/finding"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/fbc"
)

// edgeCheck is the CRD verdict on one upgrade edge (From → To of a package).
type edgeCheck struct {
	key      graph.EdgeKey
	kinds    []string // "replaces in stable", ...
	findings []finding.Finding
	unsafe   string // first error, "" when safe
	old, new crdResult
}

// forEach runs fn(0..n-1) on GOMAXPROCS goroutines, reporting progress from one at a time,
// and stops handing out work when ctx is done.
func forEach(ctx context.Context, n int, progress func(done, total int), fn func(i int)) {
	var (
		next atomic.Int64
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	workers := min(runtime.GOMAXPROCS(0), n)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, n)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}

// CheckEdges runs the CRD upgrade checker on every distinct edge of g (old = From's CRDs,
// new = To's CRDs) and checks that every version that was the storage version of a bundle
// with a path into To is still in To's spec.versions. It returns the findings and the unsafe
// edges with their reason (for graph output).
func CheckEdges(ctx context.Context, m *fbc.Model, g *graph.Graph, src CRDSource) ([]finding.Finding, map[graph.EdgeKey]string) {
	return checkEdges(ctx, m, g, src, nil)
}

func checkEdges(ctx context.Context, m *fbc.Model, g *graph.Graph, src CRDSource, progress func(done, total int)) ([]finding.Finding, map[graph.EdgeKey]string) {
	if src == nil {
		src = ObjectCRDs{}
	}
	cache := &crdCache{src: src, m: m, got: map[string]map[string]*crdEntry{}}
	edges := map[graph.EdgeKey]*edgeCheck{}
	var order []*edgeCheck
	for _, e := range g.Edges {
		k := graph.EdgeKey{Package: e.Package, From: e.From, To: e.To}
		ec := edges[k]
		if ec == nil {
			ec = &edgeCheck{key: k}
			edges[k] = ec
			order = append(order, ec)
		}
		ec.kinds = append(ec.kinds, fmt.Sprintf("%s in channel %q", e.Kind, e.Channel))
	}
	preds := newPredecessors(g)
	// Edges are checked package by package (in parallel within and across packages) and a
	// package's decoded CRDs are dropped when its last edge is done: memory follows the largest
	// packages being checked, not the catalog.
	byPkg := packageOrder(order)
	left := map[string]*atomic.Int64{}
	for _, ec := range order {
		if left[ec.key.Package] == nil {
			left[ec.key.Package] = &atomic.Int64{}
		}
		left[ec.key.Package].Add(1)
	}
	forEach(ctx, len(byPkg), progress, func(i int) {
		ec := byPkg[i]
		ec.old, ec.new = cache.get(ctx, ec.key.Package, ec.key.From), cache.get(ctx, ec.key.Package, ec.key.To)
		if ec.old.ok && ec.new.ok {
			ec.check(ctx, ec.old.crds, ec.new.crds, cache, preds)
		}
		ec.old.crds, ec.new.crds = nil, nil
		if left[ec.key.Package].Add(-1) == 0 {
			cache.drop(ec.key.Package)
		}
	})
	var out []finding.Finding
	unsafe := map[graph.EdgeKey]string{}
	unchecked := map[string]int{}
	reported := map[string]bool{}
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
		out = append(out, ec.findings...)
		if ec.unsafe != "" {
			unsafe[k] = ec.unsafe
		}
	}
	for _, pkg := range fbc.SortedKeys(unchecked) {
		out = append(out, finding.Finding{Severity: finding.SeverityInfo, Object: fmt.Sprintf("package %q", pkg), Rule: ruleCRD,
			Message: fmt.Sprintf("%d upgrade edge(s) not checked for CRD safety: the CRDs of their bundles are not in the catalog (no olm.bundle.object); pass the bundle folders or --pull", unchecked[pkg])})
	}
	return out, unsafe
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

func (ec *edgeCheck) check(ctx context.Context, old, new []*apiextv1.CustomResourceDefinition, cache *crdCache, preds *predecessors) {
	k := ec.key
	object := fmt.Sprintf("package %q edge %s -> %s", k.Package, k.From, k.To)
	via := strings.Join(ec.kinds, ", ")
	// The API server's update validation (rule apiserver, warnings by default) is left to
	// `opack validate crds` and the build's check against the previous release: on every edge
	// of a catalog it would cost ~30x the comparison itself, and each CRD is validated on its own
	// by `opack validate bundle`.
	for _, f := range crd.Compare(old, new, crd.WithContext(ctx), crd.WithAPIServerValidation(false)) {
		sev := f.Severity.FindingSeverity()
		msg := fmt.Sprintf("upgrade %s -> %s (%s): %s [%s]", k.From, k.To, via, f.String(), f.Rule)
		if f.Fix != "" {
			msg += "; fix: " + f.Fix
		}
		ec.add(finding.Finding{Severity: sev, Object: object, Rule: ruleCRD, Message: msg}, f.String())
	}
	// Versions stored by any earlier bundle with a path into To must still be in To.
	direct := map[string]bool{}
	for _, p := range preds.direct(k.Package, k.To) {
		direct[p] = true
	}
	newVersions := map[string]map[string]bool{}
	for _, c := range new {
		newVersions[c.Name] = map[string]bool{}
		for _, v := range c.Spec.Versions {
			newVersions[c.Name][v.Name] = true
		}
	}
	type lost struct{ crd, version string }
	storedBy := map[lost][]string{}
	var order []lost
	for _, anc := range preds.all(k.Package, k.From) {
		if direct[anc] {
			continue
		}
		r := cache.get(ctx, k.Package, anc)
		if !r.ok {
			continue
		}
		for _, c := range r.crds {
			vs, ok := newVersions[c.Name]
			if !ok {
				continue
			}
			for _, s := range crd.StoredVersions(c) {
				if !vs[s] {
					key := lost{c.Name, s}
					if storedBy[key] == nil {
						order = append(order, key)
					}
					storedBy[key] = append(storedBy[key], anc)
				}
			}
		}
	}
	for _, key := range order {
		reason := fmt.Sprintf("%s version %s was the storage version in %s, which can upgrade to %s; %s drops it from spec.versions",
			key.crd, key.version, listSome(storedBy[key]), k.To, k.To)
		ec.add(finding.Errorf("", object, ruleCRD, "upgrade %s -> %s (%s): %s: objects stored as %s cannot be read after the upgrade [stored-version-removed]; fix: keep %s in spec.versions (served: false) until storedVersions are migrated",
			k.From, k.To, via, reason, key.version, key.version), reason)
	}
}

func (ec *edgeCheck) add(f finding.Finding, reason string) {
	for _, have := range ec.findings {
		if have.Message == f.Message {
			return
		}
	}
	ec.findings = append(ec.findings, f)
	if f.Severity == finding.SeverityError && ec.unsafe == "" {
		ec.unsafe = reason
	}
}

func bundleObject(pkg, bundle string) string {
	return fmt.Sprintf("package %q bundle %q", pkg, bundle)
}

// predecessors indexes the edges of a graph by target.
type predecessors struct {
	into map[string]map[string][]string // package → to → froms
}

func newPredecessors(g *graph.Graph) *predecessors {
	p := &predecessors{into: map[string]map[string][]string{}}
	for _, e := range g.Edges {
		if p.into[e.Package] == nil {
			p.into[e.Package] = map[string][]string{}
		}
		p.into[e.Package][e.To] = append(p.into[e.Package][e.To], e.From)
	}
	return p
}

func (p *predecessors) direct(pkg, name string) []string { return p.into[pkg][name] }

// all returns name and every bundle with a path into it, sorted.
func (p *predecessors) all(pkg, name string) []string {
	seen := map[string]bool{name: true}
	stack := []string{name}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range p.into[pkg][cur] {
			if !seen[f] {
				seen[f] = true
				stack = append(stack, f)
			}
		}
	}
	out := fbc.SortedKeys(seen)
	sort.Strings(out)
	return out
}
