package emit

import (
	"sort"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
// RoleBindings (listed and watched cluster-wide too), plus every rule of the CSV's permissions. The rules of the bundle's own ClusterRoles
// (cluster) and Roles (namespace) are added too: the API server lets an account create a role only with
// permissions it holds (operator-controller v1.2.0 failed on the go/v4 sample's metrics-reader
// ClusterRole without them, "attempting to grant RBAC permissions not currently held").
func InstallerRBAC(ext string, csv *v1alpha1.ClusterServiceVersion, crdNames []string, others []*unstructured.Unstructured) (cluster, namespaced []rbacv1.PolicyRule) {
	otherGVKs := make([]schema.GroupVersionKind, len(others))
	for i, o := range others {
		otherGVKs[i] = o.GroupVersionKind()
	}
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
	// operator-controller watches what it installed with informers over all namespaces
	// (internal/operator-controller/contentmanager/contentmanager.go:120, v1.2.0: NamespaceAll), so
	// the installer lists and watches those kinds cluster-wide; without it v1.2.0 installs but stays
	// Progressing=Retrying "waiting for sync: failed to list ... at the cluster scope"
	// (operator-framework/operator-controller#1192).
	for _, r := range namespaced {
		cluster = append(cluster, rbacv1.PolicyRule{APIGroups: r.APIGroups, Resources: r.Resources, Verbs: []string{"list", "watch"}})
	}
	for _, o := range others {
		if o.GroupVersionKind().Group != rbacv1.GroupName {
			continue
		}
		var role rbacv1.ClusterRole // a Role has the same rules field
		if runtime.DefaultUnstructuredConverter.FromUnstructured(o.Object, &role) != nil {
			continue // the bundle's validation reports it
		}
		switch o.GetKind() {
		case "ClusterRole":
			cluster = append(cluster, role.Rules...)
		case "Role":
			namespaced = append(namespaced, role.Rules...)
		}
	}
	if csv != nil {
		for _, p := range csv.Spec.InstallStrategy.StrategySpec.ClusterPermissions {
			cluster = append(cluster, p.Rules...)
		}
		// operator-controller installs in AllNamespaces mode (the only one it supports by default), where
		// it promotes the CSV's permissions to ClusterRoles, with get/list/watch on namespaces added
		// (internal/operator-controller/rukpak/convert/registryv1.go, v1.2.0): the installer must
		// hold them cluster-wide to create those (v1.2.0 failed on the sample's leader-election rules).
		perms := csv.Spec.InstallStrategy.StrategySpec.Permissions
		for _, p := range perms {
			cluster = append(cluster, p.Rules...)
			namespaced = append(namespaced, p.Rules...)
		}
		if len(perms) > 0 {
			cluster = append(cluster, rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}})
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
