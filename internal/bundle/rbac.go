package bundle

import (
	"sort"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	rbacv1 "k8s.io/api/rbac/v1"
)

const defaultServiceAccount = "default"

// rbacSplit is the outcome of matching roles and bindings against the CSV's service accounts.
type rbacSplit struct {
	Permissions        []v1alpha1.StrategyDeploymentPermissions
	ClusterPermissions []v1alpha1.StrategyDeploymentPermissions
	// Out are the RBAC objects and service accounts written as bundle files.
	OutRoles               []rbacv1.Role
	OutClusterRoles        []rbacv1.ClusterRole
	OutRoleBindings        []rbacv1.RoleBinding
	OutClusterRoleBindings []rbacv1.ClusterRoleBinding
}

// csvServiceAccounts returns the service accounts OLM creates: each deployment's
// (or "default") plus the extra ones.
func csvServiceAccounts(c *collection, extra []string) map[string]bool {
	sas := map[string]bool{}
	for _, d := range c.Deployments {
		sa := d.Spec.Template.Spec.ServiceAccountName
		if sa == "" {
			sa = defaultServiceAccount
		}
		sas[sa] = true
	}
	for _, sa := range extra {
		sas[sa] = true
	}
	return sas
}

func acceptRefGroup(g string) bool { return g == "" || g == rbacv1.GroupName }

// bindsCSV removes the CSV service account subjects from subjects and reports whether any was there.
func bindsCSV(subjects []rbacv1.Subject, sas map[string]bool) (rest []rbacv1.Subject, found bool) {
	for _, s := range subjects {
		if s.Kind == rbacv1.ServiceAccountKind && sas[s.Name] {
			found = true
			continue
		}
		rest = append(rest, s)
	}
	return rest, found
}

// splitRBAC reproduces operator-sdk's SplitCSVPermissionsObjects and applyRoles/applyClusterRoles.
func splitRBAC(c *collection, sas map[string]bool) rbacSplit {
	roles := map[string]*rbacv1.Role{}
	for i := range c.Roles {
		roles[c.Roles[i].Name] = &c.Roles[i]
	}
	cRoles := map[string]*rbacv1.ClusterRole{}
	for i := range c.ClusterRoles {
		cRoles[c.ClusterRoles[i].Name] = &c.ClusterRoles[i]
	}
	inRoles, inPermCRoles, inCPermCRoles := map[string]bool{}, map[string]bool{}, map[string]bool{}
	rbLeft := map[int]bool{}
	for i, b := range c.RoleBindings {
		subjects := b.Subjects
		ref := b.RoleRef
		if acceptRefGroup(ref.APIGroup) && ref.Kind == "Role" && roles[ref.Name] != nil {
			var found bool
			if subjects, found = bindsCSV(subjects, sas); found {
				inRoles[ref.Name] = true
			}
		}
		if acceptRefGroup(ref.APIGroup) && ref.Kind == "ClusterRole" && cRoles[ref.Name] != nil {
			var found bool
			if subjects, found = bindsCSV(subjects, sas); found {
				inPermCRoles[ref.Name] = true
			}
		}
		rbLeft[i] = len(subjects) > 0
	}
	crbLeft := map[int]bool{}
	for i, b := range c.ClusterRoleBindings {
		subjects := b.Subjects
		ref := b.RoleRef
		if acceptRefGroup(ref.APIGroup) && ref.Kind == "ClusterRole" && cRoles[ref.Name] != nil {
			var found bool
			if subjects, found = bindsCSV(subjects, sas); found {
				inCPermCRoles[ref.Name] = true
			}
		}
		crbLeft[i] = len(subjects) > 0
	}

	var s rbacSplit
	s.Permissions = permissions(sas, c.RoleBindings, func(b rbacv1.RoleBinding) ([]rbacv1.Subject, []rbacv1.PolicyRule, bool) {
		switch b.RoleRef.Kind {
		case "Role":
			if inRoles[b.RoleRef.Name] {
				return b.Subjects, roles[b.RoleRef.Name].Rules, true
			}
		case "ClusterRole":
			if inPermCRoles[b.RoleRef.Name] {
				return b.Subjects, cRoles[b.RoleRef.Name].Rules, true
			}
		}
		return b.Subjects, nil, false
	})
	s.ClusterPermissions = permissions(sas, c.ClusterRoleBindings, func(b rbacv1.ClusterRoleBinding) ([]rbacv1.Subject, []rbacv1.PolicyRule, bool) {
		if inCPermCRoles[b.RoleRef.Name] {
			return b.Subjects, cRoles[b.RoleRef.Name].Rules, true
		}
		return b.Subjects, nil, false
	})
	for _, r := range c.Roles {
		if !inRoles[r.Name] {
			s.OutRoles = append(s.OutRoles, r)
		}
	}
	for _, r := range c.ClusterRoles {
		if !inPermCRoles[r.Name] && !inCPermCRoles[r.Name] {
			s.OutClusterRoles = append(s.OutClusterRoles, r)
		}
	}
	for i, b := range c.RoleBindings {
		if rbLeft[i] {
			s.OutRoleBindings = append(s.OutRoleBindings, b)
		}
	}
	for i, b := range c.ClusterRoleBindings {
		if crbLeft[i] {
			s.OutClusterRoleBindings = append(s.OutClusterRoleBindings, b)
		}
	}
	return s
}

// permissions concatenates, per CSV service account, the rules of the roles bound to it in
// binding order; accounts without rules are left out; the result is sorted by account name.
func permissions[B any](sas map[string]bool, bindings []B, rules func(B) ([]rbacv1.Subject, []rbacv1.PolicyRule, bool)) []v1alpha1.StrategyDeploymentPermissions {
	perSA := map[string][]rbacv1.PolicyRule{}
	for _, b := range bindings {
		subjects, rs, ok := rules(b)
		if !ok {
			continue
		}
		for _, s := range subjects {
			if s.Kind == rbacv1.ServiceAccountKind && sas[s.Name] {
				perSA[s.Name] = append(perSA[s.Name], rs...)
			}
		}
	}
	out := []v1alpha1.StrategyDeploymentPermissions{}
	for sa, rs := range perSA {
		if len(rs) > 0 {
			out = append(out, v1alpha1.StrategyDeploymentPermissions{ServiceAccountName: sa, Rules: rs})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ServiceAccountName < out[j].ServiceAccountName })
	return out
}
