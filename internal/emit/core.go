package emit

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"
)

// coreKinds are the built-in kinds the templates may render, with whether they are namespaced and a
// value to decode them into strictly.
var coreKinds = map[schema.GroupVersionKind]struct {
	namespaced bool
	newObj     func() any
}{
	{Version: "v1", Kind: "Namespace"}:                                   {false, func() any { return &corev1.Namespace{} }},
	{Version: "v1", Kind: "ServiceAccount"}:                              {true, func() any { return &corev1.ServiceAccount{} }},
	{Group: rbacv1.GroupName, Version: "v1", Kind: "ClusterRole"}:        {false, func() any { return &rbacv1.ClusterRole{} }},
	{Group: rbacv1.GroupName, Version: "v1", Kind: "ClusterRoleBinding"}: {false, func() any { return &rbacv1.ClusterRoleBinding{} }},
	{Group: rbacv1.GroupName, Version: "v1", Kind: "Role"}:               {true, func() any { return &rbacv1.Role{} }},
	{Group: rbacv1.GroupName, Version: "v1", Kind: "RoleBinding"}:        {true, func() any { return &rbacv1.RoleBinding{} }},
}

// validateObject checks an OLM object against its CRD schema, and a built-in object by decoding it
// strictly into its Go type and checking its metadata.
func validateObject(ctx context.Context, s *Schemas, obj *unstructured.Unstructured) error {
	gvk := obj.GroupVersionKind()
	if s.Covers(gvk) {
		if errs := s.Validate(ctx, obj); len(errs) > 0 {
			return fmt.Errorf("invalid %s: %s", gvk.Kind, FormatErrors(errs))
		}
		return nil
	}
	k, ok := coreKinds[gvk]
	if !ok {
		return fmt.Errorf("kind %s is neither an OLM kind nor one of Namespace, ServiceAccount, ClusterRole, ClusterRoleBinding, Role, RoleBinding", gvk)
	}
	data, err := json.Marshal(obj.Object)
	if err != nil {
		return err
	}
	if err := yaml.UnmarshalStrict(data, k.newObj()); err != nil {
		return fmt.Errorf("invalid %s: %w", gvk.Kind, err)
	}
	errs := validation.ValidateObjectMetaAccessor(obj, k.namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, validateRBAC(obj)...)
	if len(errs) > 0 {
		return fmt.Errorf("invalid %s: %s", gvk.Kind, FormatErrors(errs))
	}
	return nil
}

// validateRBAC checks what the API server would refuse in rules and bindings.
func validateRBAC(obj *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	rules, _, _ := unstructured.NestedSlice(obj.Object, "rules")
	for i, r := range rules {
		m, _ := r.(map[string]any)
		p := field.NewPath("rules").Index(i)
		if verbs, _, _ := unstructured.NestedStringSlice(m, "verbs"); len(verbs) == 0 {
			errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
		}
		urls, _, _ := unstructured.NestedStringSlice(m, "nonResourceURLs")
		res, _, _ := unstructured.NestedStringSlice(m, "resources")
		if len(urls) == 0 && len(res) == 0 {
			errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
		}
	}
	if k := obj.GetKind(); k == "ClusterRoleBinding" || k == "RoleBinding" {
		if name, _, _ := unstructured.NestedString(obj.Object, "roleRef", "name"); name == "" {
			errs = append(errs, field.Required(field.NewPath("roleRef", "name"), ""))
		}
	}
	return errs
}
