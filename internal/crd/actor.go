package crd

import "strings"

// Actor names who refuses the upgrade when a finding's change ships, or who breaks when nothing refuses it.
type Actor string

// Actors, from the first to refuse to the last to notice.
const (
	// ActorAPIServer: the API server refuses the CRD update (or the CRD itself); no installer gets past it.
	ActorAPIServer Actor = "apiserver"
	// ActorOLMv0: OLM v0's InstallPlan fails (existing objects invalid against the new schema, a CSV
	// owning an unserved version).
	ActorOLMv0 Actor = "olm-v0"
	// ActorOLMv1: OLM v1's CRD upgrade-safety preflight (crdify with operator-controller's configuration)
	// refuses the update.
	ActorOLMv1 Actor = "olm-v1"
	// ActorClients: no installer refuses the update; clients, controllers or later writes of existing
	// objects break.
	ActorClients Actor = "clients"
)

// actors maps each rule to the first actor that refuses (or suffers) its change. OLM v1 runs crdify with
// operator-controller's configuration (descriptions ignored, enum values may be added, unhandled schema
// changes are errors), so it refuses every schema change but an added enum value; the API server does not
// re-validate unchanged fields of existing objects on update, so it accepts schema tightenings; OLM v0
// refuses them only when an existing object no longer validates (rules instance-*).
var actors = map[Rule]Actor{
	RuleStoredVersionRemoved:   ActorAPIServer,
	RuleScopeChanged:           ActorAPIServer,
	RuleNameChanged:            ActorAPIServer,
	RuleAPIServer:              ActorAPIServer,
	RuleInstanceInvalid:        ActorOLMv0,
	RuleInstanceCELInvalid:     ActorOLMv0,
	RuleCSVVersionNotServed:    ActorOLMv0,
	RuleVersionRemoved:         ActorClients,
	RuleVersionUnserved:        ActorClients,
	RuleStorageVersionChanged:  ActorClients,
	RuleStorageVersionNew:      ActorClients,
	RuleStorageVersionUnserved: ActorClients,
	RuleCRDRemoved:             ActorClients,
	RuleCRDAdded:               ActorClients,
	RulePreserveUnknownFields:  ActorClients,
	RuleEnumValueAdded:         ActorClients,
}

// alsoRefused lists the installers whose own check refuses a rule's change before the API server would
// (checked against the real controllers on testdata/crd-upgrade's CASES.tsv, columns olm-v0 and olm-v1):
// OLM v0's stored-version check ("risk of data loss updating ...: new CRD removes version v1 that is
// listed as a stored version on the existing CRD") and OLM v1's preflight ("storedVersionRemoval: stored
// versions removed", "scope: scope changed"); OLM v0 leaves a scope change to the API server ("field is
// immutable").
var alsoRefused = map[Rule][]Actor{
	RuleStoredVersionRemoved: {ActorOLMv0, ActorOLMv1},
	RuleScopeChanged:         {ActorOLMv1},
}

// tightenings are the schema rules whose change can make an existing object invalid: OLM v0 validates
// every existing object against the new schema before it updates the CRD and fails the InstallPlan when
// one no longer validates (seen on the real OLM v0: max-tightened, min-tightened and required-added in
// CASES.tsv's olm0 rows and TestE2EOLMv0Lifecycle). Without the objects at hand, opack names OLM v0 as a
// conditional refuser of these; with them (--instances) the objects' own findings (instance-invalid) say it.
var tightenings = map[Rule]bool{
	RuleTypeChanged: true, RuleEnumAdded: true, RuleEnumValueRemoved: true, RuleRequiredAdded: true,
	RuleMaxTightened: true, RuleMinTightened: true, RulePatternAdded: true, RulePatternChanged: true,
	RuleNullableRemoved: true, RuleOneOfAdded: true, RuleOneOfRemoved: true, RuleAnyOfAdded: true,
	RuleAnyOfRemoved: true, RuleAllOfAdded: true, RuleNotChanged: true, RuleFormatChanged: true,
	RuleCELAdded: true, RuleCELChanged: true, RuleAdditionalProperties: true,
	RuleUniqueItemsAdded: true, RuleMultipleOfTightened: true,
}

// RefusersOf returns every actor that refuses a rule's change outright: ActorOf(r) and the installers
// whose own check refuses it too (clients are never a refuser).
func RefusersOf(r Rule) []Actor {
	a := ActorOf(r)
	if a == ActorClients {
		return nil
	}
	return append([]Actor{a}, alsoRefused[r]...)
}

// verdict says who refuses a finding of rule r whose first actor is a: "refused by apiserver, olm-v0
// and olm-v1", "refused by olm-v1; by olm-v0 too when an existing object no longer validates", "breaks
// clients".
func verdict(r Rule, a Actor) string {
	names := refusers(r, a)
	if len(names) < 2 {
		v := a.Verdict()
		if tightenings[r] && a == ActorOLMv1 && a == ActorOf(r) {
			v += "; by olm-v0 too when an existing object no longer validates"
		}
		return v
	}
	v := "refused by " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	if tightenings[r] && a == ActorOLMv1 {
		v += "; by olm-v0 too when an existing object no longer validates"
	}
	return v
}

// refusers names who refuses a finding of rule r whose first actor is a: the rule's refusers when a is
// the rule's own refusing actor, else a alone.
func refusers(r Rule, a Actor) []string {
	if a == ActorClients || a != ActorOf(r) {
		return []string{string(a)}
	}
	var out []string
	for _, x := range RefusersOf(r) {
		out = append(out, string(x))
	}
	return out
}

// ActorOf returns who refuses (or suffers) the change a rule reports.
func ActorOf(r Rule) Actor {
	if a, ok := actors[r]; ok {
		return a
	}
	return ActorOLMv1 // the schema rules
}

// Verdict says what the actor does: "refused by apiserver" (olm-v0, olm-v1), or "breaks clients".
func (a Actor) Verdict() string {
	if a == ActorClients {
		return "breaks clients"
	}
	return "refused by " + string(a)
}
