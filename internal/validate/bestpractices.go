package validate

import (
	"context"
	"fmt"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/finding"
)

// Rules of the best-practices suite.
const (
	RuleBPSchema    = "best-practices/structural-schema"
	RuleBPStatus    = "best-practices/status-subresource"
	RuleBPRBAC      = "best-practices/rbac"
	RuleBPResources = "best-practices/resource-requests"
	RuleBPMinKube   = "best-practices/min-kube-version"
)

// runBestPractices applies OLM's and operator authors' guidance that operator-sdk does not check.
func runBestPractices(_ context.Context, r *bundleRun) []finding.Finding {
	var out []finding.Finding
	csv := r.lb.Manifests.CSV
	for _, crd := range r.v1CRDs() {
		out = append(out, r.crdPractices(crd)...)
	}
	out = append(out, r.rbacPractices()...)
	out = append(out, r.resourcePractices()...)
	if csv.Spec.MinKubeVersion == "" {
		out = append(out, finding.Warnf(r.lb.CSVFile, r.lb.CSVObject(), RuleBPMinKube,
			"spec.minKubeVersion is not set: set it to the oldest Kubernetes release the operator is tested on (e.g. 1.28.0), so that OLM does not offer it to older clusters"))
	}
	return out
}

// crdPractices checks that every served version has a structural schema describing its fields, and that a
// schema with status serves status as a subresource.
func (r *bundleRun) crdPractices(crd *apiextensionsv1.CustomResourceDefinition) []finding.Finding {
	file, object := r.lb.CRDFile[crd.Name], finding.ObjectName("CustomResourceDefinition", crd.Name)
	var out []finding.Finding
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		var root *apiextensionsv1.JSONSchemaProps
		if v.Schema != nil {
			root = v.Schema.OpenAPIV3Schema
		}
		if root == nil {
			out = append(out, finding.Warnf(file, object, RuleBPSchema,
				"version %s has no schema: describe spec and status in openAPIV3Schema so that the API server validates, prunes and defaults them", v.Name))
			continue
		}
		if len(root.Properties) == 0 && preservesUnknown(root) {
			out = append(out, finding.Warnf(file, object, RuleBPSchema,
				"version %s has no schema for its fields (only x-kubernetes-preserve-unknown-fields): describe spec and status in openAPIV3Schema so that the API server validates, prunes and defaults them", v.Name))
			continue
		}
		for _, part := range []string{"spec", "status"} {
			if p, ok := root.Properties[part]; ok && len(p.Properties) == 0 && p.AdditionalProperties == nil && preservesUnknown(&p) {
				out = append(out, finding.Warnf(file, object, RuleBPSchema,
					"version %s: %s has no schema for its fields (only x-kubernetes-preserve-unknown-fields): describe its properties so that the API server validates them", v.Name, part))
			}
		}
		if _, ok := root.Properties["status"]; ok && (v.Subresources == nil || v.Subresources.Status == nil) {
			out = append(out, finding.Warnf(file, object, RuleBPStatus,
				"version %s has a status in its schema but no status subresource: add subresources: {status: {}} so that users cannot overwrite status and the controller updates it through /status", v.Name))
		}
	}
	return out
}

// v1CRDs returns the bundle's CRDs as apiextensions.k8s.io/v1, v1beta1 ones converted as the API server
// converts them (one that does not convert is left to the CRD checks).
func (r *bundleRun) v1CRDs() []*apiextensionsv1.CustomResourceDefinition {
	out := append([]*apiextensionsv1.CustomResourceDefinition{}, r.lb.Manifests.V1CRDs...)
	for _, old := range r.lb.Manifests.V1beta1CRDs {
		internal := &apiextensions.CustomResourceDefinition{}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if crdScheme().Converter().Convert(old, internal, nil) == nil && crdScheme().Converter().Convert(internal, crd, nil) == nil {
			if crd.Name == "" {
				crd.Name = old.Name
			}
			out = append(out, crd)
		}
	}
	return out
}

func preservesUnknown(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

// rbacPractices checks that the CSV's permissions let the operator update <plural>/status and
// <plural>/finalizers of each CRD it owns.
func (r *bundleRun) rbacPractices() []finding.Finding {
	csv := r.lb.Manifests.CSV
	var rules []rbacv1.PolicyRule
	spec := csv.Spec.InstallStrategy.StrategySpec
	for _, p := range append(append([]operatorsv1alpha1.StrategyDeploymentPermissions{}, spec.Permissions...), spec.ClusterPermissions...) {
		rules = append(rules, p.Rules...)
	}
	var out []finding.Finding
	for _, crd := range r.v1CRDs() {
		if !r.owned(crd.Name) {
			continue
		}
		group, plural := crd.Spec.Group, crd.Spec.Names.Plural
		if hasStatusSubresource(crd) && !allows(rules, group, plural+"/status", "update", "patch") {
			out = append(out, finding.Warnf(r.lb.CSVFile, r.lb.CSVObject(), RuleBPRBAC,
				"the CSV's permissions do not allow update or patch of %s/status in group %s: add the rule so that the operator can report status", plural, group))
		}
		if !allows(rules, group, plural+"/finalizers", "update") {
			out = append(out, finding.Warnf(r.lb.CSVFile, r.lb.CSVObject(), RuleBPRBAC,
				"the CSV's permissions do not allow update of %s/finalizers in group %s: add the rule, or setting ownerReferences with blockOwnerDeletion fails where OwnerReferencesPermissionEnforcement is on (OpenShift)", plural, group))
		}
	}
	return out
}

func (r *bundleRun) owned(crdName string) bool {
	for _, o := range r.lb.Manifests.CSV.Spec.CustomResourceDefinitions.Owned {
		if o.Name == crdName {
			return true
		}
	}
	return false
}

func hasStatusSubresource(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, v := range crd.Spec.Versions {
		if v.Served && v.Subresources != nil && v.Subresources.Status != nil {
			return true
		}
	}
	return false
}

// allows reports whether a rule grants one of verbs on resource in group.
func allows(rules []rbacv1.PolicyRule, group, resource string, verbs ...string) bool {
	for _, rule := range rules {
		if contains(rule.APIGroups, group) && contains(rule.Resources, resource) {
			for _, v := range verbs {
				if contains(rule.Verbs, v) {
					return true
				}
			}
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || x == "*" {
			return true
		}
	}
	return false
}

// resourcePractices checks that every container of the CSV's deployments requests CPU and memory.
func (r *bundleRun) resourcePractices() []finding.Finding {
	var out []finding.Finding
	for _, d := range r.lb.Manifests.CSV.Spec.InstallStrategy.StrategySpec.DeploymentSpecs {
		pod := d.Spec.Template.Spec
		for _, c := range append(append(pod.InitContainers[:0:0], pod.InitContainers...), pod.Containers...) {
			var missing []string
			for _, res := range []string{"cpu", "memory"} {
				if _, ok := c.Resources.Requests[corev1.ResourceName(res)]; !ok {
					missing = append(missing, res)
				}
			}
			if len(missing) > 0 {
				out = append(out, finding.Warnf(r.lb.CSVFile, r.lb.CSVObject(), RuleBPResources,
					"deployment %s, container %s requests no %s: set resources.requests so that the scheduler places the pod where it fits", d.Name, c.Name, joinAnd(missing)))
			}
		}
	}
	return out
}

func joinAnd(s []string) string {
	if len(s) == 2 {
		return fmt.Sprintf("%s or %s", s[0], s[1])
	}
	return s[0]
}
