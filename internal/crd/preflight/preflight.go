// Package preflight is OLM v1's CRD upgrade-safety preflight, as operator-controller runs it before it
// installs or upgrades a bundle, modelled offline: what the preflight of a release refuses when the live
// CRD is OLD and the bundle brings NEW. Two preflights exist:
//   - Crdify (operator-controller v1.4.0 and later): sigs.k8s.io/crdify with operator-controller's
//     configuration: descriptions ignored, enum values may be added, every change no validation handles
//     refused ("unhandled"), served versions not compared when NEW converts with a webhook;
//   - Kapp (v1.0.0 to v1.3.x): the checks operator-controller carried from carvel's kapp: a schema node
//     may differ in one handled keyword only (enum, required, the bounds, default, type), anything else
//     (descriptions included) is an unknown change and refused, and the served versions of NEW are
//     compared pairwise on every upgrade.
//
// The models are written from the sources (crdify@bb9957dbf465 pkg/validations, pkg/validators;
// operator-controller v1.11.0 and v1.2.0 internal/operator-controller/rukpak/preflights/crdupgradesafety;
// carvel.dev/kapp v0.64.0 pkg/kapp/crdupgradesafety; openshift/crd-schema-checker pkg/manifestcomparators)
// rather than linked: opack holds its claims to the real controllers (testdata/crd-upgrade CASES.tsv) and
// to crdify itself on real catalogs (internal/crd/agreement), which a linked copy could not be measured by.
package preflight

import (
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Preflight selects the preflight of a range of operator-controller releases.
type Preflight int

const (
	// Crdify is the preflight of operator-controller v1.4.0 and later.
	Crdify Preflight = iota
	// Kapp is the preflight of operator-controller v1.0.0 to v1.3.x.
	Kapp
)

// String names the releases that run the preflight.
func (p Preflight) String() string {
	if p == Kapp {
		return "v1.0-v1.3"
	}
	return "v1.4+"
}

// Kinds of refusal: a CRD-wide check, a version compared with itself, two served versions of NEW.
const (
	KindCRD    = "crd"
	KindSame   = "same"
	KindServed = "served"
)

// Checks that are not a keyword's: the preflight panics on the pair (crdify dereferences a version
// without a schema), a field removed, and (Kapp) a change no check handles.
const (
	CheckPanic     = "panic"
	CheckRemoved   = "existingFieldRemoval"
	CheckUnhandled = "unhandled"
)

// Refusal is one error of the preflight.
type Refusal struct {
	// Kind is KindCRD, KindSame or KindServed.
	Kind string
	// Version is the version compared ("v1"), the served pair ("v1 -> v2"), or "" for scope and stored
	// versions.
	Version string
	// Path is the schema node as opack spells it ("^.spec.list[*].name", "^.spec.map.*"); Property as the
	// preflight does ("^.spec.list.items.name" for crdify, "^.spec.list[*].name" for kapp).
	Path, Property string
	// Check is the preflight's check: crdify's validation names (type, enum, required, maximum, maxItems,
	// ..., default, pattern, nullable, oneOf, scope, storedVersionRemoval, existingFieldRemoval,
	// unhandled), used for kapp's checks too.
	Check string
	// Keywords are the schema keywords an unhandled change changed, by their JSON names
	// ("x-kubernetes-list-type", "description", "items").
	Keywords []string
	// Removed says the node is absent from NEW (or from the newer served version).
	Removed bool
	// Old and New are the values a handled check compared (a type, an enum, a default, a bound), as
	// short strings; empty for the others.
	Old, New string
	// Message is what the preflight says.
	Message string
	// Holder is OLD's node above the refused one, at HolderPath (nil at the root): copies of one struct
	// hold the same change at several paths (internal/crd folds them into one finding).
	Holder     *apiextv1.JSONSchemaProps
	HolderPath string
}

// Check returns what preflight p refuses of the upgrade from the live CRD old (its status.storedVersions
// as the cluster holds them) to new, as the bundle gives it; nil when p accepts it. The order is the
// preflight's, made deterministic: CRD-wide checks, then each version (and served pair) in the CRDs'
// order, its nodes depth first with properties by name.
func Check(old, new *apiextv1.CustomResourceDefinition, p Preflight, opts ...Option) []Refusal {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if p == Kapp {
		return kappCheck(old, new)
	}
	return crdifyCheck(old, new, o.topmost)
}

// Option tunes Check.
type Option func(*options)

type options struct{ topmost bool }

// TopmostRemovals leaves out what crdify reports of the nodes below a removed node that has refusals of
// its own (each is a removed field of its own to crdify, compared with an empty node): they say all a
// caller that reports the removal once needs, at a fraction of the cost of a large removed subtree.
func TopmostRemovals() Option { return func(o *options) { o.topmost = true } }

// crdWide are the checks both preflights run on the CRD as a whole: scope and stored versions.
func crdWide(old, new *apiextv1.CustomResourceDefinition, p Preflight) []Refusal {
	var out []Refusal
	if old.Spec.Scope != new.Spec.Scope {
		msg := "scope changed : " + quote(string(old.Spec.Scope)) + " -> " + quote(string(new.Spec.Scope))
		if p == Kapp {
			msg = "scope changed from " + quote(string(old.Spec.Scope)) + " to " + quote(string(new.Spec.Scope))
		}
		out = append(out, Refusal{Kind: KindCRD, Path: "spec.scope", Check: "scope", Message: msg})
	}
	versions := map[string]bool{}
	for _, v := range new.Spec.Versions {
		versions[v.Name] = true
	}
	var removed []string
	for _, v := range old.Status.StoredVersions {
		if !versions[v] {
			removed = append(removed, v)
		}
	}
	if len(removed) > 0 {
		msg := "stored versions removed : [" + strings.Join(removed, " ") + "]"
		if p == Kapp {
			msg = "stored version " + quote(removed[0]) + " removed"
		}
		out = append(out, Refusal{Kind: KindCRD, Path: "spec.versions", Check: "storedVersionRemoval", Message: msg})
	}
	return out
}

func findVersion(c *apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

// schemaOf returns a version's schema; ok is false when the version has none (crdify dereferences it).
func schemaOf(v *apiextv1.CustomResourceDefinitionVersion) (*apiextv1.JSONSchemaProps, bool) {
	if v.Schema == nil {
		return nil, false
	}
	return v.Schema.OpenAPIV3Schema, true
}

func isWebhook(c *apiextv1.CustomResourceDefinition) bool {
	return c.Spec.Conversion != nil && c.Spec.Conversion.Strategy == apiextv1.WebhookConverter
}

// servedSorted returns the served versions, oldest first by Kubernetes' version order.
func servedSorted(c *apiextv1.CustomResourceDefinition) []*apiextv1.CustomResourceDefinitionVersion {
	var out []*apiextv1.CustomResourceDefinitionVersion
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Served {
			out = append(out, &c.Spec.Versions[i])
		}
	}
	sortKubeAware(out)
	return out
}

func quote(s string) string { return strconvQuote(s) }
