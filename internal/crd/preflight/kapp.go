package preflight

import (
	"fmt"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// kappLocator spells locations as crd-schema-checker's SchemaHas does (kapp's FlattenSchema and its
// NoFieldRemoval use it): items and additionalProperties are "[*]", a tuple item "[i]", and allOf, anyOf,
// oneOf, not and the other maps stay at their parent's location (a later child replaces the parent in a
// flattened map).
type kappLocator struct{}

func (kappLocator) child(parent, kind, key string) string {
	switch kind {
	case "property":
		return parent + "." + key
	case "items", "additionalProperties":
		return parent + "[*]"
	case "itemsIndex":
		return parent + "[" + key + "]"
	}
	return parent
}

// kappChange is one of operator-controller v1.2.0's change validations (checks.go): the keyword it handles
// and what it says of a change of it ("" when the change is safe).
type kappChange struct {
	keyword string
	check   func(o, n *apiextv1.JSONSchemaProps) string
}

// kappChanges are operator-controller v1.0-v1.3's change validations, in its order: a node's change is
// handled by the first whose keyword is the only one that changed.
var kappChanges = []kappChange{
	{"enum", func(o, n *apiextv1.JSONSchemaProps) string {
		oldVals, newVals := map[string]bool{}, map[string]bool{}
		for _, v := range o.Enum {
			oldVals[load.RawKey(v.Raw)] = true
		}
		for _, v := range n.Enum {
			newVals[load.RawKey(v.Raw)] = true
		}
		if len(oldVals) == 0 && len(newVals) > 0 {
			return fmt.Sprintf("enum constraints %v added when there were no restrictions previously", sortedKeys(newVals))
		}
		var removed []string
		for _, k := range sortedKeys(oldVals) {
			if !newVals[k] {
				removed = append(removed, k)
			}
		}
		if len(removed) > 0 {
			return fmt.Sprintf("enums %v removed from the set of previously allowed values", removed)
		}
		return ""
	}},
	{"required", func(o, n *apiextv1.JSONSchemaProps) string {
		if added := minus(n.Required, o.Required); len(added) > 0 {
			return fmt.Sprintf("new required fields %v added", added)
		}
		return ""
	}},
	kappBound("maximum", func(s *apiextv1.JSONSchemaProps) any { return s.Maximum }, true),
	kappBound("maxItems", func(s *apiextv1.JSONSchemaProps) any { return s.MaxItems }, true),
	kappBound("maxLength", func(s *apiextv1.JSONSchemaProps) any { return s.MaxLength }, true),
	kappBound("maxProperties", func(s *apiextv1.JSONSchemaProps) any { return s.MaxProperties }, true),
	kappBound("minimum", func(s *apiextv1.JSONSchemaProps) any { return s.Minimum }, false),
	kappBound("minItems", func(s *apiextv1.JSONSchemaProps) any { return s.MinItems }, false),
	kappBound("minLength", func(s *apiextv1.JSONSchemaProps) any { return s.MinLength }, false),
	kappBound("minProperties", func(s *apiextv1.JSONSchemaProps) any { return s.MinProperties }, false),
	{"default", func(o, n *apiextv1.JSONSchemaProps) string {
		switch {
		case o.Default == nil && n.Default != nil:
			return fmt.Sprintf("default value %q added when there was no default previously", string(n.Default.Raw))
		case o.Default != nil && n.Default == nil:
			return fmt.Sprintf("default value %q removed", string(o.Default.Raw))
		case o.Default != nil && n.Default != nil && !load.JSONEqual(o.Default.Raw, n.Default.Raw):
			return fmt.Sprintf("default value changed from %q to %q", string(o.Default.Raw), string(n.Default.Raw))
		}
		return ""
	}},
	{"type", func(o, n *apiextv1.JSONSchemaProps) string {
		if o.Type != n.Type {
			return fmt.Sprintf("type changed from %q to %q", o.Type, n.Type)
		}
		return ""
	}},
}

func kappBound(keyword string, get func(*apiextv1.JSONSchemaProps) any, max bool) kappChange {
	return kappChange{keyword, func(o, n *apiextv1.JSONSchemaProps) string {
		ov, nv := get(o), get(n)
		ovs, nvs := !isNilPtr(ov), !isNilPtr(nv)
		switch {
		case !nvs:
		case !ovs:
			return keyword + ": constraint " + fmtBound(nv) + " added when there were no restrictions previously"
		case max && boundValue(nv) < boundValue(ov):
			return keyword + ": constraint decreased from " + fmtBound(ov) + " to " + fmtBound(nv)
		case !max && boundValue(nv) > boundValue(ov):
			return keyword + ": constraint increased from " + fmtBound(ov) + " to " + fmtBound(nv)
		}
		return ""
	}}
}

// kappCompared are the keywords kapp's flattened diff leaves out of a node: its properties (compared as
// nodes of their own). Its items stay: a change anywhere inside an array's items is also a change of the
// array.
var kappCompared = map[string]bool{"properties": true}

func kappCheck(old, new *apiextv1.CustomResourceDefinition) []Refusal {
	if !schemaful(new) {
		return nil
	}
	if kappPanics(old, new) {
		return []Refusal{{Kind: KindCRD, Check: CheckPanic,
			Message: "the preflight panics: a version it compares has no schema, or NEW serves no version"}}
	}
	out := crdWide(old, new, Kapp)
	// NoExistingFieldRemoved (crd-schema-checker's NoFieldRemoval).
	for i := range new.Spec.Versions {
		nv := &new.Spec.Versions[i]
		ov := findVersion(old, nv.Name)
		if ov == nil {
			continue
		}
		os, _ := schemaOf(ov)
		ns, _ := schemaOf(nv)
		oflat, nflat := flatten(os, kappLocator{}), flatten(ns, kappLocator{})
		for _, loc := range sortedKeys(oflat) {
			if _, ok := nflat[loc]; !ok {
				o := oflat[loc]
				out = append(out, Refusal{Kind: KindCRD, Version: nv.Name, Path: o.path, Property: loc, Check: CheckRemoved, Removed: true,
					Holder: o.parent, HolderPath: o.parentPath, Message: "crd/" + new.Name + " version/" + nv.Name + " field/" + loc + " may not be removed"})
			}
		}
	}
	// ServedVersionValidator: every pair of NEW's served versions, unless NEW converts with a webhook.
	if !isWebhook(new) {
		served := servedSorted(new)
		for i := 0; i < len(served); i++ {
			for j := i + 1; j < len(served); j++ {
				pair := served[i].Name + " -> " + served[j].Name
				out = append(out, compareKapp(served[i], served[j], KindServed, pair)...)
			}
		}
	}
	// ChangeValidator: every version of OLD that NEW keeps.
	for i := range old.Spec.Versions {
		if nv := findVersion(new, old.Spec.Versions[i].Name); nv != nil {
			out = append(out, compareKapp(&old.Spec.Versions[i], nv, KindSame, old.Spec.Versions[i].Name)...)
		}
	}
	return out
}

// kappPanics reports whether the preflight dereferences a version without a schema or slices NEW's
// served versions when it serves none (servedVersions[:len(servedVersions)-1]).
func kappPanics(old, new *apiextv1.CustomResourceDefinition) bool {
	for i := range new.Spec.Versions {
		if ov := findVersion(old, new.Spec.Versions[i].Name); ov != nil && (ov.Schema == nil || new.Spec.Versions[i].Schema == nil) {
			return true
		}
	}
	if isWebhook(new) {
		return false
	}
	served := servedSorted(new)
	if len(served) == 0 {
		return true
	}
	for _, v := range served {
		if len(served) > 1 && v.Schema == nil {
			return true
		}
	}
	return false
}

// compareKapp compares ov's schema with nv's as kapp's ChangeValidator (or operator-controller's
// ServedVersionValidator) does: a location nv lacks fails the whole comparison; every other node that
// differs must differ in one handled keyword alone, and that change be safe.
func compareKapp(ov, nv *apiextv1.CustomResourceDefinitionVersion, kind, version string) []Refusal {
	os, _ := schemaOf(ov)
	ns, _ := schemaOf(nv)
	oflat, nflat := flatten(os, kappLocator{}), flatten(ns, kappLocator{})
	for _, loc := range sortedKeys(oflat) {
		if _, ok := nflat[loc]; !ok {
			msg := "calculating schema diff for CRD version " + quote(version)
			if kind == KindServed {
				msg = "calculating schema diff between CRD versions " + strings.Replace(quote(version), " -> ", `" and "`, 1)
			}
			o := oflat[loc]
			return []Refusal{{Kind: kind, Version: version, Path: o.path, Property: loc, Check: CheckRemoved, Removed: true, Message: msg,
				Holder: o.parent, HolderPath: o.parentPath}}
		}
	}
	var out []Refusal
	for _, loc := range sortedKeys(oflat) {
		o, n := oflat[loc], nflat[loc]
		changed := differing(o.s, n.s, kappCompared)
		if len(changed) == 0 {
			continue
		}
		at := func(check, msg string, kws []string) {
			out = append(out, Refusal{Kind: kind, Version: version, Path: o.path, Property: loc, Check: check, Keywords: kws, Message: msg,
				Holder: o.parent, HolderPath: o.parentPath})
		}
		handled := false
		for _, c := range kappChanges {
			if msg := c.check(o.s, n.s); msg != "" {
				at(c.keyword, msg, nil)
			}
			if len(changed) == 1 && changed[0] == c.keyword {
				handled = true
				break
			}
		}
		if !handled {
			at(CheckUnhandled, fmt.Sprintf("version %q, field %q has unknown change, refusing to determine that change is safe (%s)", version, loc, describe(o.s, n.s, changed)), changed)
		}
	}
	return out
}
