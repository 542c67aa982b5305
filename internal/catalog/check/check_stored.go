package check

import (
	"fmt"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/fbc"
)

// crdVersions is what the stored-version reasoning needs of one bundle's CRD: the versions it
// lists and the versions it stores (its storage version and status.storedVersions).
type crdVersions struct {
	listed map[string]bool
	stored []string
}

// versionsOf summarizes a bundle's CRDs by name.
func versionsOf(crds []*apiextv1.CustomResourceDefinition) map[string]crdVersions {
	out := make(map[string]crdVersions, len(crds))
	for _, c := range crds {
		v := crdVersions{listed: make(map[string]bool, len(c.Spec.Versions)), stored: crd.StoredVersions(c)}
		for _, sv := range c.Spec.Versions {
			v.listed[sv.Name] = true
		}
		out[c.Name] = v
	}
	return out
}

// storedDrop is an edge that removes from spec.versions a version a cluster arriving on the
// edge's From can still have in status.storedVersions.
type storedDrop struct {
	from, to     string
	crd, version string
	path         []string // releases from the one that stored the version to To
}

// storedKey is one CRD version a cluster may have stored.
type storedKey struct{ crd, version string }

// storedDrops finds, for one package, the edges that drop a still-storable version. For each
// bundle it computes the versions a cluster that reached it, on any path, can have in
// status.storedVersions: the storage versions of the bundles on the path, minus versions a later
// bundle on the path no longer lists (the API server never lets storedVersions hold a version
// missing from spec.versions, so such a cluster has migrated). The sets only grow, so a worklist
// reaches the fixed point even on graphs with cycles; each (bundle, CRD, version) is added once,
// so the work is linear in edges times versions and no path is ever enumerated. Bundles whose
// CRDs are unknown (absent from versions) pass the sets on unchanged.
func storedDrops(edges [][2]string, versions map[string]map[string]crdVersions) []storedDrop {
	out := map[string][]string{}
	for _, e := range edges {
		out[e[0]] = append(out[e[0]], e[1])
	}
	// via[b][k] is the bundle a cluster came from when it first could hold k at b ("" where b stores k).
	via := map[string]map[storedKey]string{}
	var work []string
	add := func(b string, k storedKey, from string) {
		if via[b] == nil {
			via[b] = map[storedKey]string{}
		}
		if _, ok := via[b][k]; ok {
			return
		}
		via[b][k] = from
		work = append(work, b)
	}
	for _, b := range fbc.SortedKeys(versions) {
		for _, name := range fbc.SortedKeys(versions[b]) {
			for _, v := range versions[b][name].stored {
				add(b, storedKey{name, v}, "")
			}
		}
	}
	type dropKey struct {
		from, to string
		k        storedKey
	}
	seen := map[dropKey]bool{}
	var drops []storedDrop
	for len(work) > 0 {
		a := work[len(work)-1]
		work = work[:len(work)-1]
		keys := make([]storedKey, 0, len(via[a]))
		for k := range via[a] {
			keys = append(keys, k)
		}
		for _, b := range out[a] {
			for _, k := range keys {
				nv, known := versions[b][k.crd]
				switch {
				case !known || nv.listed[k.version]:
					// b keeps the version, or b's CRDs are unknown, or b does not ship the CRD
					// (it stays on the cluster as it was): the version stays storable.
					add(b, k, a)
				case !seen[dropKey{a, b, k}]:
					seen[dropKey{a, b, k}] = true
					drops = append(drops, storedDrop{from: a, to: b, crd: k.crd, version: k.version, path: append(pathTo(via, a, k), b)})
				}
			}
		}
	}
	sort.Slice(drops, func(i, j int) bool {
		x, y := drops[i], drops[j]
		if x.from != y.from {
			return x.from < y.from
		}
		if x.to != y.to {
			return x.to < y.to
		}
		if x.crd != y.crd {
			return x.crd < y.crd
		}
		return x.version < y.version
	})
	return drops
}

// pathTo follows via back from b to the release that stored k and returns the releases in
// upgrade order.
func pathTo(via map[string]map[storedKey]string, b string, k storedKey) []string {
	path := []string{b}
	seen := map[string]bool{b: true}
	for cur := b; ; {
		prev := via[cur][k]
		if prev == "" || seen[prev] {
			break
		}
		seen[prev] = true
		path = append(path, prev)
		cur = prev
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// message says what the drop breaks, naming the releases that lead to it.
func (d storedDrop) message() string { return d.messageAlong(releasePath(d.path)) }

// messageAlong is message with the paths given as text.
func (d storedDrop) messageAlong(paths string) string {
	return fmt.Sprintf("%s version %s: %s removes it from spec.versions, but a cluster upgraded along %s can still have it in status.storedVersions (the first release stored it): OLM v0 reports \"risk of data loss\", OLM v1 \"stored versions removed\" [stored-version-removed]; %s; fix: %s",
		d.crd, d.version, d.to, paths, storedVerdict(), crd.FixFor(crd.RuleStoredVersionRemoved))
}

// releasePath joins releases with arrows, eliding the middle of long paths.
func releasePath(path []string) string {
	if len(path) > 8 {
		mid := fmt.Sprintf("(%d more)", len(path)-6)
		path = append(append(append([]string{}, path[:3]...), mid), path[len(path)-3:]...)
	}
	return strings.Join(path, " -> ")
}

// storedVerdict says who refuses a stored version dropped (the API server among them, so an error).
func storedVerdict() string {
	return crd.Finding{Rule: crd.RuleStoredVersionRemoved, Actor: crd.ActorAPIServer, Severity: crd.SeverityError, Semantic: crd.SeverityError}.Verdict()
}
