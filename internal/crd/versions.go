package crd

import (
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/version"

	"github.com/opack/opack/internal/crd/load"
)

func newChange(r Rule, path, old, new, msg string) change {
	return change{Finding: Finding{Rule: r, Path: path, Old: old, New: new, Message: msg}}
}

// compareNames checks the fields the API server never lets change (K7-K9).
func compareNames(oc, nc *apiextv1.CustomResourceDefinition, emit func(change)) {
	if oc.Spec.Scope != nc.Spec.Scope {
		emit(newChange(RuleScopeChanged, "spec.scope", string(oc.Spec.Scope), string(nc.Spec.Scope),
			"scope changed; the API server refuses it (field is immutable)"))
	}
	if oc.Spec.PreserveUnknownFields && !nc.Spec.PreserveUnknownFields && !rootsPreserve(nc) {
		emit(newChange(RulePreserveUnknownFields, "spec.preserveUnknownFields", "true", "false",
			"spec.preserveUnknownFields turned off (as when a v1beta1 CRD becomes v1); fields not in the schemas are pruned (lost) from existing objects"))
	}
	for _, f := range []struct{ path, old, new string }{
		{"spec.group", oc.Spec.Group, nc.Spec.Group},
		{"spec.names.plural", oc.Spec.Names.Plural, nc.Spec.Names.Plural},
		{"spec.names.kind", oc.Spec.Names.Kind, nc.Spec.Names.Kind},
	} {
		if f.old != f.new {
			emit(newChange(RuleNameChanged, f.path, f.old, f.new, "changed; the API server refuses it (field is immutable)"))
		}
	}
}

// rootsPreserve reports whether every version's root schema keeps unknown fields.
func rootsPreserve(c *apiextv1.CustomResourceDefinition) bool {
	for i := range c.Spec.Versions {
		if s := versionSchema(&c.Spec.Versions[i]); s == nil || !isTrue(s.XPreserveUnknownFields) {
			return false
		}
	}
	return true
}

// compareVersions checks stored, served and storage versions (K4, V1, P2 and the deprecation steps).
func compareVersions(oc, nc *apiextv1.CustomResourceDefinition, stored []string, emit func(change)) {
	for _, v := range stored {
		if findVersion(nc, v) == nil {
			emit(change{Finding: Finding{Rule: RuleStoredVersionRemoved, Version: v, Path: "spec.versions", Old: v,
				Message: "version " + v + " is removed but listed in status.storedVersions; the API server (and OLM: " +
					"\"risk of data loss\") refuses the update until a storage migration removes " + v + " from status.storedVersions"}})
		}
	}
	for i := range oc.Spec.Versions {
		ov := &oc.Spec.Versions[i]
		nv := findVersion(nc, ov.Name)
		switch {
		case nv == nil && !contains(stored, ov.Name) && ov.Served:
			emit(change{Finding: Finding{Rule: RuleVersionRemoved, Version: ov.Name, Path: "spec.versions", Old: ov.Name,
				Message: "served version removed without a release where it was served: false; its clients break, and existing objects become unreadable at " + ov.Name + " (the API server answers 404)"}})
		case nv != nil && ov.Served && !nv.Served:
			emit(change{Finding: Finding{Rule: RuleVersionUnserved, Version: ov.Name, Path: "spec.versions[" + ov.Name + "].served",
				Old: "true", New: "false", Message: "version no longer served; its API endpoints disappear: existing objects created as " + ov.Name +
					" become unreadable at " + ov.Name + " (the API server answers 404) until clients read them at a served version"}})
		}
	}
	os, ns := storageVersion(oc), storageVersion(nc)
	if os != "" && ns != "" && os != ns {
		emit(change{Finding: Finding{Rule: RuleStorageVersionChanged, Path: "spec.versions[*].storage", Old: os, New: ns,
			Message: "storage version moves from " + os + " to " + ns + "; objects stay stored as " + os + " until rewritten"}})
		if findVersion(oc, ns) == nil {
			emit(change{Finding: Finding{Rule: RuleStorageVersionNew, Version: ns, Path: "spec.versions[*].storage", Old: os, New: ns,
				Message: "storage moves to a version this release adds; clients get no overlap and rolling back is impossible"}})
		}
	}
	if nv := findVersion(nc, ns); nv != nil && !nv.Served {
		c := change{Finding: Finding{Rule: RuleStorageVersionUnserved, Version: ns, Path: "spec.versions[" + ns + "].served",
			New: "false", Message: "the storage version is not served"}}
		if ov := findVersion(oc, ns); ov != nil && ov.Storage && !ov.Served {
			c = preExisting(c)
		}
		emit(c)
	}
}

// checkRefs reports CSV owned/required CRD versions the new CRDs do not serve, unless the old release
// already had the same problem.
func checkRefs(o *options, old, new []*apiextv1.CustomResourceDefinition, emit func(change)) {
	if len(o.newRefs) == 0 {
		return
	}
	served := func(crds []*apiextv1.CustomResourceDefinition) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for _, c := range crds {
			m[c.Name] = map[string]bool{}
			for _, v := range c.Spec.Versions {
				m[c.Name][v.Name] = v.Served
			}
		}
		return m
	}
	oldServed, newServed := served(old), served(new)
	oldBroken := map[load.VersionRef]bool{}
	for _, r := range o.oldRefs {
		if vs, ok := oldServed[r.CRD]; ok && !vs[r.Version] {
			oldBroken[load.VersionRef{CRD: r.CRD, Version: r.Version}] = true
		}
	}
	for _, r := range o.newRefs {
		vs, ok := newServed[r.CRD]
		if !ok || vs[r.Version] {
			continue
		}
		how := "requires"
		if r.Owned {
			how = "owns"
		}
		c := change{Finding: Finding{Rule: RuleCSVVersionNotServed, CRD: r.CRD, Version: r.Version, Path: "spec.versions",
			Message: "ClusterServiceVersion " + r.CSV + " " + how + " version " + r.Version + ", which the CRD does not serve; OLM fails the CSV (CRD version not served)"}}
		if oldBroken[load.VersionRef{CRD: r.CRD, Version: r.Version}] {
			c = preExisting(c)
		}
		emit(c)
	}
}

// isNoneConversion reports whether the CRD converts between versions by rewriting apiVersion only.
func isNoneConversion(c *apiextv1.CustomResourceDefinition) bool {
	return c.Spec.Conversion == nil || c.Spec.Conversion.Strategy == "" || c.Spec.Conversion.Strategy == apiextv1.NoneConverter
}

// compareServed checks that the new CRD's served versions round-trip under None conversion (crdify P15):
// every pair, older to newer, is compared like an upgrade. Findings the old CRD's pairs already had are
// not reported. Nothing is checked when the new CRD converts with a webhook.
func compareServed(severity func(Rule) Severity, oc, nc *apiextv1.CustomResourceDefinition, emit func(change)) {
	if !isNoneConversion(nc) {
		return
	}
	before := map[string]bool{}
	servedPairs(oc, func(pair string, c change) { before[servedKey(pair, c)] = true })
	servedPairs(nc, func(pair string, c change) {
		if before[servedKey(pair, c)] {
			return
		}
		sev := severity(c.Rule)
		if c.ceiling != SeverityOff && c.ceiling < sev {
			sev = c.ceiling
		}
		inner := c.Rule
		c.Rule, c.Inner, c.Version, c.ceiling = RuleServedVersion, inner, pair, sev
		if sev == SeverityOff {
			return
		}
		c.Message = string(inner) + ": " + c.Message + " (served versions with conversion None must round-trip: objects are read and written through both)"
		emit(c)
	})
}

func servedKey(pair string, c change) string {
	return strings.Join([]string{pair, string(c.Rule), c.Path, c.Old, c.New, c.Message}, "\x00")
}

// servedPairs diffs every pair of served versions, older to newer in Kubernetes version order.
func servedPairs(c *apiextv1.CustomResourceDefinition, emit func(pair string, c change)) {
	var served []*apiextv1.CustomResourceDefinitionVersion
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Served {
			served = append(served, &c.Spec.Versions[i])
		}
	}
	sortKubeAware(served)
	for i := 0; i < len(served); i++ {
		for j := i + 1; j < len(served); j++ {
			pair := served[i].Name + " -> " + served[j].Name
			diffVersions(served[i], served[j], c.Spec.PreserveUnknownFields, func(ch change) { emit(pair, ch) })
		}
	}
}

// sortKubeAware orders versions oldest first (v1alpha1, v1beta1, v1, v2).
func sortKubeAware(vs []*apiextv1.CustomResourceDefinitionVersion) {
	sort.SliceStable(vs, func(i, j int) bool {
		return version.CompareKubeAwareVersionStrings(vs[i].Name, vs[j].Name) < 0
	})
}

// preExisting marks a problem the old release already had and the new one keeps: the upgrade does
// not cause it, so it is at most a warning, and says so.
func preExisting(c change) change {
	c.Message = "pre-existing (the old release has the same problem): " + c.Message
	c.ceiling = SeverityWarning
	return c
}
