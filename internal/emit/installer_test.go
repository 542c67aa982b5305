package emit

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestInstallerRBAC: the installer holds what it must grant. Kubernetes refuses an account creating a
// (Cluster)Role with permissions it does not hold; operator-controller v1.2.0, installing the go/v4
// sample with the derived account, failed on the bundle's metrics-reader ClusterRole ("attempting to
// grant RBAC permissions not currently held") until the bundle's own roles' rules were added.
func TestInstallerRBAC(t *testing.T) {
	metricsReader := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "op-metrics-reader"},
		"rules": []any{map[string]any{"nonResourceURLs": []any{"/metrics"}, "verbs": []any{"get"}}},
	}}
	leader := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": map[string]any{"name": "op-leader"},
		"rules": []any{map[string]any{"apiGroups": []any{"coordination.k8s.io"}, "resources": []any{"leases"}, "verbs": []any{"get", "update"}}},
	}}
	monitor := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor", "metadata": map[string]any{"name": "op-monitor"},
	}}
	csv := &v1alpha1.ClusterServiceVersion{}
	csv.Spec.InstallStrategy.StrategySpec.ClusterPermissions = []v1alpha1.StrategyDeploymentPermissions{{
		ServiceAccountName: "op", Rules: []rbacv1.PolicyRule{{APIGroups: []string{"cache.example.com"}, Resources: []string{"memcacheds"}, Verbs: []string{"get"}}}}}
	csv.Spec.InstallStrategy.StrategySpec.Permissions = []v1alpha1.StrategyDeploymentPermissions{{
		ServiceAccountName: "op", Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}}}}
	cluster, namespaced := InstallerRBAC("op", csv, []string{"memcacheds.cache.example.com"}, []*unstructured.Unstructured{metricsReader, leader, monitor})
	wantCluster := []rbacv1.PolicyRule{
		{APIGroups: []string{"olm.operatorframework.io"}, Resources: []string{"clusterextensions/finalizers"}, ResourceNames: []string{"op"}, Verbs: []string{"update"}},
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, Verbs: []string{"create", "list", "watch"}},
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, ResourceNames: []string{"memcacheds.cache.example.com"}, Verbs: []string{"delete", "get", "patch", "update"}},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"clusterrolebindings", "clusterroles"}, Verbs: manageVerbs},
		{APIGroups: []string{"monitoring.coreos.com"}, Resources: []string{"servicemonitors"}, Verbs: manageVerbs},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"clusterroles", "roles"}, Verbs: manageVerbs},
		// operator-controller's informers list and watch what it installed in all namespaces
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts", "services"}, Verbs: []string{"list", "watch"}},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"rolebindings", "roles"}, Verbs: []string{"list", "watch"}},
		{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}},
		{APIGroups: []string{"cache.example.com"}, Resources: []string{"memcacheds"}, Verbs: []string{"get"}},
		// the CSV's permissions, which operator-controller makes ClusterRoles of in AllNamespaces mode
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}},
	}
	if diff := cmp.Diff(wantCluster, cluster); diff != "" {
		t.Errorf("cluster rules (-want +got):\n%s", diff)
	}
	wantNamespaced := []rbacv1.PolicyRule{
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: manageVerbs},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts", "services"}, Verbs: manageVerbs},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"rolebindings", "roles"}, Verbs: manageVerbs},
		{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "update"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}},
	}
	if diff := cmp.Diff(wantNamespaced, namespaced); diff != "" {
		t.Errorf("namespace rules (-want +got):\n%s", diff)
	}
}
