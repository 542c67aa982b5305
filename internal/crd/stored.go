package crd

import (
	"sort"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// StoredVersions returns, sorted, the versions objects of c may be stored in: its storage
// version and its status.storedVersions. A later release must keep each of them in
// spec.versions until the stored objects were migrated.
func StoredVersions(c *apiextv1.CustomResourceDefinition) []string {
	set := map[string]bool{}
	for _, v := range c.Spec.Versions {
		if v.Storage {
			set[v.Name] = true
		}
	}
	for _, v := range c.Status.StoredVersions {
		set[v] = true
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
