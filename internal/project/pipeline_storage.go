package project

import (
	"fmt"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/catalog/graph"
	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/finding"
)

// bundleCRDs returns the CRDs of a bundle of the catalog (ok false when the catalog does not carry them).
type bundleCRDs func(pkg, name string) ([]*apiextv1.CustomResourceDefinition, bool)

// storedVersionFindings checks the graph beyond single edges: a version that was the storage
// version of any bundle with an upgrade path into a bundle must still be in that bundle's CRD, or
// objects stored by a release several upgrades back can no longer be read. Direct predecessors are
// left to the edge comparison. A declared migration (or a waiver of stored-version-removed)
// accepts the removal.
func (r *run) storedVersionFindings(g *graph.Graph, get bundleCRDs, file string) []finding.Finding {
	into := map[[2]string][]string{} // package, to → froms
	var targets [][2]string
	for e := range g.All() {
		k := [2]string{e.Package, e.To}
		if into[k] == nil {
			targets = append(targets, k)
		}
		into[k] = append(into[k], e.From)
	}
	var out []finding.Finding
	for _, k := range targets {
		newCRDs, ok := get(k[0], k[1])
		if !ok {
			continue
		}
		versions := map[string]map[string]bool{}
		for _, c := range newCRDs {
			versions[c.Name] = map[string]bool{}
			for _, v := range c.Spec.Versions {
				versions[c.Name][v.Name] = true
			}
		}
		direct := map[string]bool{}
		for _, f := range into[k] {
			direct[f] = true
		}
		storedBy := map[[2]string][]string{} // crd, version → bundles
		for _, anc := range ancestors(into, k[0], k[1]) {
			old, ok := get(k[0], anc)
			if direct[anc] || !ok {
				continue
			}
			for _, c := range old {
				if versions[c.Name] == nil {
					continue
				}
				for _, s := range crd.StoredVersions(c) {
					if !versions[c.Name][s] {
						storedBy[[2]string{c.Name, s}] = append(storedBy[[2]string{c.Name, s}], anc)
					}
				}
			}
		}
		out = append(out, r.lostVersions(k, storedBy, file)...)
	}
	return out
}

func (r *run) lostVersions(k [2]string, storedBy map[[2]string][]string, file string) []finding.Finding {
	keys := make([][2]string, 0, len(storedBy))
	for key := range storedBy {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+" "+keys[i][1] < keys[j][0]+" "+keys[j][1] })
	var out []finding.Finding
	for _, key := range keys {
		f := crd.Finding{Rule: crd.RuleStoredVersionRemoved, Severity: crd.SeverityError, Semantic: crd.SeverityError, CRD: key[0], Version: key[1], Path: "spec.versions", Actor: crd.ActorAPIServer,
			Message: fmt.Sprintf("version %s was the storage version in %s, which can upgrade to %s; %s drops it from spec.versions, so objects still stored as %s cannot be read",
				key[1], strings.Join(storedBy[key], ", "), k[1], k[1], key[1]),
			Fix: "keep " + key[1] + " in spec.versions (served: false) until every cluster migrated its objects and status.storedVersions; then declare it under migrations in " + r.p.File}
		object := fmt.Sprintf("package %q bundle %s", k[0], k[1])
		for _, f := range r.crdFindings([]crd.Finding{f}, "", func(crd.Finding) string { return object }, file) {
			f.Package = k[0]
			out = append(out, f)
		}
	}
	return out
}

// ancestors returns every bundle with an upgrade path into name, sorted.
func ancestors(into map[[2]string][]string, pkg, name string) []string {
	seen := map[string]bool{name: true}
	stack := []string{name}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, f := range into[[2]string{pkg, cur}] {
			if !seen[f] {
				seen[f] = true
				stack = append(stack, f)
			}
		}
	}
	delete(seen, name)
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
