package load

import (
	"encoding/json"
	"slices"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Grant is one RBAC rule a ClusterServiceVersion asks for (spec.install.spec.permissions or
// clusterPermissions): OLM creates it with the operator's service account.
type Grant struct {
	CSV       string
	APIGroups []string
	Resources []string
	Verbs     []string
	Cluster   bool // from clusterPermissions
}

// csvGrants returns the RBAC rules of a CSV (its unstructured content).
func csvGrants(csv map[string]any) []Grant {
	name, _, _ := unstructured.NestedString(csv, "metadata", "name")
	var out []Grant
	for _, field := range []string{"permissions", "clusterPermissions"} {
		v, _, _ := unstructured.NestedFieldNoCopy(csv, "spec", "install", "spec", field)
		perms, _ := v.([]any)
		for _, p := range perms {
			pm, _ := p.(map[string]any)
			rules, _ := pm["rules"].([]any)
			for _, r := range rules {
				rm, _ := r.(map[string]any)
				out = append(out, Grant{CSV: name, APIGroups: strs(rm["apiGroups"]), Resources: strs(rm["resources"]),
					Verbs: strs(rm["verbs"]), Cluster: field == "clusterPermissions"})
			}
		}
	}
	return out
}

// CSVGrants returns the RBAC rules of a CSV given as JSON (fbc.Bundle.CsvJSON); ok is false
// when the JSON does not decode.
func CSVGrants(csvJSON []byte) (grants []Grant, ok bool) {
	var m map[string]any
	if err := json.Unmarshal(csvJSON, &m); err != nil {
		return nil, false
	}
	return csvGrants(m), true
}

// Creates reports whether g lets the operator create objects of c.
func (g Grant) Creates(c *apiextv1.CustomResourceDefinition) bool {
	return matchAny(g.APIGroups, c.Spec.Group) && matchAny(g.Resources, c.Spec.Names.Plural) && matchAny(g.Verbs, "create")
}

func matchAny(list []string, want string) bool {
	return slices.Contains(list, want) || slices.Contains(list, "*")
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
