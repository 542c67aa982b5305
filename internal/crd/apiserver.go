package crd

import (
	"context"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/opack/opack/internal/crd/load"
)

// validateUpdate runs the API server's update validation of the new CRD against the old one (K1-K22,
// with the API server's own ratcheting), as the cluster would when the new CRD is applied. Errors the
// old CRD already has, and the stored-version and immutable-name errors that other rules report, are
// dropped.
func validateUpdate(oc, nc *apiextv1.CustomResourceDefinition, stored []string, emit func(change)) {
	if equality.Semantic.DeepEqual(oc.Spec, nc.Spec) {
		return // every error the update could get, the old CRD already has
	}
	oi, err := load.ToInternal(load.Defaulted(oc))
	if err != nil {
		return
	}
	ni, err := load.ToInternal(load.Defaulted(nc))
	if err != nil {
		emit(newChange(RuleAPIServer, "", "", "", err.Error()))
		return
	}
	ctx := context.Background()
	if neverApplied(ctx, oi) {
		// The old CRD cannot be on a cluster, so applying the new CRD creates it, unratcheted.
		for _, e := range validation.ValidateCustomResourceDefinition(ctx, forCreate(ni)) {
			emit(newChange(RuleAPIServer, e.Field, "", "", "the API server rejects the CRD (the old CRD could never be applied either, so nothing ratchets): "+shorten(e.Error())))
		}
		return
	}
	// The API server stores the update with the live status, then appends the new storage version.
	oi.Status.StoredVersions = append([]string(nil), stored...)
	oi.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}}
	ni.Status = *oi.Status.DeepCopy()
	for _, v := range ni.Spec.Versions {
		if v.Storage && !contains(ni.Status.StoredVersions, v.Name) {
			ni.Status.StoredVersions = append(ni.Status.StoredVersions, v.Name)
		}
	}
	ni.ObjectMeta.UID, ni.ObjectMeta.ResourceVersion = oi.ObjectMeta.UID, oi.ObjectMeta.ResourceVersion
	errs := validation.ValidateCustomResourceDefinitionUpdate(ctx, ni, oi)
	if len(errs) == 0 {
		return
	}
	pre := map[string]bool{}
	for _, e := range validation.ValidateCustomResourceDefinitionUpdate(ctx, oi.DeepCopy(), oi) {
		pre[errKey(e)] = true
	}
	for _, e := range errs {
		if pre[errKey(e)] || coveredElsewhere(e) {
			continue
		}
		emit(newChange(RuleAPIServer, e.Field, "", "", "the API server rejects the update: "+shorten(e.Error())))
	}
}

func shorten(msg string) string {
	if len(msg) > 400 {
		return msg[:397] + "..."
	}
	return msg
}

// neverApplied reports whether the API server refuses c's schemas on create although c is no
// v1beta1-era CRD (those keep spec.preserveUnknownFields and are ratcheted): no cluster can hold it.
// Other create errors (no storage version marked, say) are left to the ratcheted update validation.
func neverApplied(ctx context.Context, c *apiextensions.CustomResourceDefinition) bool {
	if isTrue(c.Spec.PreserveUnknownFields) {
		return false
	}
	for _, e := range validation.ValidateCustomResourceDefinition(ctx, forCreate(c)) {
		if strings.Contains(e.Field, "openAPIV3Schema") {
			return true
		}
	}
	return false
}

// forCreate returns a copy of c with the status the API server sets on create: its storage version stored.
func forCreate(c *apiextensions.CustomResourceDefinition) *apiextensions.CustomResourceDefinition {
	c = c.DeepCopy()
	c.Status = apiextensions.CustomResourceDefinitionStatus{}
	for _, v := range c.Spec.Versions {
		if v.Storage {
			c.Status.StoredVersions = []string{v.Name}
		}
	}
	return c
}

func errKey(e *field.Error) string {
	return e.Field + "\x00" + string(e.Type) + "\x00" + e.Detail
}

// coveredElsewhere reports errors that stored-version-removed, scope-changed and name-changed report.
func coveredElsewhere(e *field.Error) bool {
	if strings.HasPrefix(e.Field, "status.storedVersions") {
		return true
	}
	switch e.Field {
	case "spec.scope", "spec.group", "spec.names.plural", "spec.names.kind":
		return strings.Contains(e.Detail, "immutable")
	}
	return false
}
