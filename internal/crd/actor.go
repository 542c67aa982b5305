package crd

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
