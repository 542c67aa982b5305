package emit

import (
	"sort"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Verbs an installer needs on what it manages: create and watch anything of a kind, change and delete it.
var manageVerbs = []string{"create", "delete", "get", "list", "patch", "update", "watch"}

// InstallerRBAC derives the rules of the service account operator-controller installs a bundle with
// (OLM v1 releases whose ClusterExtension requires spec.serviceAccount), following OLM v1's "derive a
// minimal ServiceAccount" guide instead of binding cluster-admin: cluster rules to finalize the
// ClusterExtension ext, manage the bundle's CRDs (crdNames), cluster RBAC and its other objects
// (otherGVKs: kinds of unknown scope are allowed cluster-wide), plus every rule of the CSV's
// clusterPermissions (Kubernetes lets an account grant only what it holds); namespace rules, for the
// install namespace, to manage the operator's Deployments, ServiceAccounts, Services, Roles and
// RoleBindings, plus every rule of the CSV's permissions.
func InstallerRBAC(ext string, csv *v1alpha1.ClusterServiceVersion, crdNames []string, otherGVKs []schema.GroupVersionKind) (cluster, namespaced []rbacv1.PolicyRule) {
	cluster = []rbacv1.PolicyRule{
		{APIGroups: []string{"olm.operatorframework.io"}, Resources: []string{"clusterextensions/finalizers"}, ResourceNames: []string{ext}, Verbs: []string{"update"}},
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, Verbs: []string{"create", "list", "watch"}},
	}
	if len(crdNames) > 0 {
		names := append([]string(nil), crdNames...)
		sort.Strings(names)
		cluster = append(cluster, rbacv1.PolicyRule{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, ResourceNames: names, Verbs: []string{"delete", "get", "patch", "update"}})
	}
	cluster = append(cluster, rbacv1.PolicyRule{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"clusterrolebindings", "clusterroles"}, Verbs: manageVerbs})
	cluster = append(cluster, otherRules(otherGVKs)...)
	namespaced = []rbacv1.PolicyRule{
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: manageVerbs},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts", "services"}, Verbs: manageVerbs},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"rolebindings", "roles"}, Verbs: manageVerbs},
	}
	if csv != nil {
		for _, p := range csv.Spec.InstallStrategy.StrategySpec.ClusterPermissions {
			cluster = append(cluster, p.Rules...)
		}
		for _, p := range csv.Spec.InstallStrategy.StrategySpec.Permissions {
			namespaced = append(namespaced, p.Rules...)
		}
	}
	return cluster, namespaced
}

// otherRules allows managing the bundle's other objects, one rule per API group.
func otherRules(gvks []schema.GroupVersionKind) []rbacv1.PolicyRule {
	byGroup := map[string]map[string]bool{}
	for _, gvk := range gvks {
		plural, _ := meta.UnsafeGuessKindToResource(gvk)
		if byGroup[gvk.Group] == nil {
			byGroup[gvk.Group] = map[string]bool{}
		}
		byGroup[gvk.Group][plural.Resource] = true
	}
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var out []rbacv1.PolicyRule
	for _, g := range groups {
		var res []string
		for r := range byGroup[g] {
			res = append(res, r)
		}
		sort.Strings(res)
		out = append(out, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: res, Verbs: manageVerbs})
	}
	return out
}
