package crd

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

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

// creates reports whether g lets the operator create objects of c.
func (g Grant) creates(c *apiextv1.CustomResourceDefinition) bool {
	return matchAny(g.APIGroups, c.Spec.Group) && matchAny(g.Resources, c.Spec.Names.Plural) && matchAny(g.Verbs, "create")
}

func matchAny(list []string, want string) bool {
	return slices.Contains(list, want) || slices.Contains(list, "*")
}

// removedMessage words crd-removed by what the new release's CSVs say: whether they still hold
// create rights on the CRD's resource (grants known), or nothing is known of them.
func removedMessage(c *apiextv1.CustomResourceDefinition, grants []Grant, known bool) string {
	if !known {
		return "CRD removed from the new release; its objects stay on the cluster, and no CSV of the new release was given to say whether the operator still manages them"
	}
	res := c.Spec.Names.Plural + "." + c.Spec.Group
	for _, g := range grants {
		if g.creates(c) {
			scope := "permissions"
			if g.Cluster {
				scope = "clusterPermissions"
			}
			return fmt.Sprintf("CRD removed from the new release, but its CSV %s still has create rights on %s (%s: verbs %s): the operator may still create and manage its objects, but no release installs or updates the CRD any more (OLM leaves the old CRD on upgraded clusters; on new installs it does not exist); keep shipping the CRD or drop those rights",
				g.CSV, res, scope, strings.Join(g.Verbs, ","))
		}
	}
	return fmt.Sprintf("CRD removed from the new release, and its CSV holds no create rights on %s: existing objects stay on the cluster unmanaged", res)
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
