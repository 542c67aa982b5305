package crd

import (
	"slices"
	"strings"
)

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

// actors maps each rule to the first actor that refuses (or suffers) its change whatever the change is.
// Schema rules are not listed: what OLM v1's preflight refuses is decided per change (Finding.OLMv1,
// internal/crd/preflight), and a schema change nobody refuses breaks clients or existing objects. The API
// server does not re-validate unchanged fields of existing objects on update, so it accepts schema
// tightenings; OLM v0 refuses them only when an existing object no longer validates (rules instance-*).
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

// olmV1Static names OLM v1's check for the rules it always refuses (alsoRefused), on findings made
// without the preflight's model (a stored version removed across a catalog's history).
var olmV1Static = map[Rule]string{
	RuleStoredVersionRemoved: "crdify's storedVersionRemoval check", RuleScopeChanged: "crdify's scope check",
}

// olmV1Name names olm-v1 as a refuser of f's change with what refuses it: "olm-v1 (crdify's default
// check)", "olm-v1 (crdify's type check; before v1.4, kapp's type check)", "olm-v1 before v1.4 (kapp, as
// an unknown change of description)".
func olmV1Name(f Finding) string {
	switch {
	case f.OLMv1 != "" && f.OLMv1Kapp != "":
		return "olm-v1 (" + f.OLMv1 + "; before v1.4, " + f.OLMv1Kapp + ")"
	case f.OLMv1Kapp != "":
		return "olm-v1 before v1.4 (" + f.OLMv1Kapp + ")"
	case f.OLMv1 != "":
		return "olm-v1 (" + f.OLMv1 + ")"
	case olmV1Static[f.Rule] != "":
		return "olm-v1 (" + olmV1Static[f.Rule] + ")"
	}
	return "olm-v1 (crdify preflight)"
}

// judge returns the severity a finding is printed with: the higher of its semantic severity (what the
// change does to existing objects and clients) and its refusers' (error when the API server refuses it,
// as no cluster then takes the upgrade, or an installer the project deploys with; warning when another
// installer refuses it). deployed says an installer of installers refuses it. A semantic severity of
// off (a policy turned the rule off) stays off.
func judge(semantic Severity, refusers, installers []Actor) (sev Severity, deployed bool) {
	if semantic == SeverityOff {
		return SeverityOff, false
	}
	sev = semantic
	for _, a := range refusers {
		s := SeverityWarning
		switch {
		case a == ActorAPIServer:
			s = SeverityError
		case slices.Contains(installers, a):
			s, deployed = SeverityError, true
		}
		sev = max(sev, s)
	}
	return sev, deployed
}

// verdict says who refuses f's change: "refused by olm-v1 (crdify's default check)", "refused by olm-v1
// (crdify's maxItems check); by olm-v0 too when an existing object no longer validates", "refused by
// apiserver, olm-v0 and olm-v1 (crdify's storedVersionRemoval check)"; Deployed adds ", which this project
// deploys with" after the refusers. "" when nobody refuses it.
func verdict(f Finding) string {
	refusers := f.Refusers()
	if len(refusers) == 0 {
		return ""
	}
	names := make([]string, len(refusers))
	for i, a := range refusers {
		names[i] = string(a)
		if a == ActorOLMv1 {
			names[i] = olmV1Name(f)
		}
	}
	v := "refused by " + names[0]
	if n := len(names); n > 1 {
		v = "refused by " + strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	if f.Deployed {
		v += ", which this project deploys with"
	}
	if tightenings[f.Rule] && f.Semantic > SeverityInfo && len(RefusersOf(f.Rule)) == 0 && !slices.Contains(refusers, ActorOLMv0) {
		v += "; by olm-v0 too when an existing object no longer validates"
	}
	return v
}

// installerFix is the fix of a finding whose severity comes from an installer's refusal, not from what
// the change does (harmless: nothing at all to existing objects and clients): what lets the refuser
// install the upgrade. Only OLM v1's preflight refuses a change for its shape rather than for what it
// does, so only its refusals need another fix than their rule's own: a rule the API server or OLM v0
// refuses (rules apiserver, scope-changed, instance-invalid, ...) states the refusal itself, and its fix
// lifts it. A change only the preflight before v1.4 refuses is installed by later releases.
func installerFix(f Finding, harmless bool) string {
	if len(RefusersOf(f.Rule)) > 0 {
		return FixFor(f.Rule)
	}
	if f.OLMv1 == "" && f.OLMv1Kapp != "" {
		fix := "when every cluster runs operator-controller " + OLMv1PreflightVersion + " or later, whose preflight accepts this change, say so (deploy.olmv1.minOLMVersion: " +
			OLMv1PreflightVersion + " in opack.yaml, --olmv1-min-version " + OLMv1PreflightVersion + " for validate crds); else keep the schema as it was: before " +
			OLMv1PreflightVersion + " OLM v1 refuses it (" + f.OLMv1Kapp + ")"
		if harmless {
			fix += " although existing objects and clients are not affected"
		}
		return fix
	}
	check := f.OLMv1
	if check == "" {
		check = f.OLMv1Kapp
	}
	switch f.Rule {
	case RuleDefaultRemoved:
		return "keep the default in the schema where OLM v1 installs this operator: OLM v1 refuses removing any default, documented or not (" + check + ")"
	case RuleDefaultAdded:
		return "leave the default out of the schema (to the controller, or to Kubernetes for its own types) where OLM v1 installs this operator, or add it in a new API version: OLM v1 refuses any added default (" + check + ")"
	}
	fix := "where OLM v1 installs this operator, keep this part of the schema as it was (make the change in a new API version): OLM v1 refuses it (" + check + ")"
	if harmless {
		fix += " although existing objects and clients are not affected"
	}
	return fix
}

// ActorOf returns who refuses (or suffers) the change a rule reports whatever the change is: clients for
// the schema rules, whose refusal by OLM v1 is the change's own (Finding.Refusers).
func ActorOf(r Rule) Actor {
	if a, ok := actors[r]; ok {
		return a
	}
	return ActorClients
}
