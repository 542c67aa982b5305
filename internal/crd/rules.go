package crd

import "sort"

// Rule identifies a check. The ids are stable: policy files name them.
type Rule string

// CRD-wide rules.
const (
	RuleStoredVersionRemoved   Rule = "stored-version-removed"   // apiserver K4, OLM v0 V1, crdify P2
	RuleVersionRemoved         Rule = "version-removed"          // a served, never stored version dropped (R3)
	RuleVersionUnserved        Rule = "version-unserved"         // served true -> false (R2)
	RuleStorageVersionChanged  Rule = "storage-version-changed"  // the storage flag moved (R5)
	RuleStorageVersionNew      Rule = "storage-version-new"      // the storage flag moved to a version this release adds
	RuleStorageVersionUnserved Rule = "storage-version-unserved" // the storage version is not served (R7)
	RuleCSVVersionNotServed    Rule = "csv-version-not-served"   // the CSV owns or requires a version that is not served (OLM v0 V6)
	RuleScopeChanged           Rule = "scope-changed"            // apiserver K7, crdify P1
	RuleNameChanged            Rule = "name-changed"             // apiserver K8/K9: kind, plural or group
	RuleCRDRemoved             Rule = "crd-removed"              // a CRD of the old release is missing from the new one
	RuleCRDAdded               Rule = "crd-added"                // a CRD only the new release has
	RuleAPIServer              Rule = "apiserver"                // the API server would reject the update (K1-K22)
	RuleServedVersion          Rule = "served-version-incompatible"
	RuleInstanceInvalid        Rule = "instance-invalid"     // OLM v0 V3 (OpenAPI schema)
	RuleInstanceCELInvalid     Rule = "instance-cel-invalid" // x-kubernetes-validations on existing objects
)

// Schema rules (crdify P3-P14, classified).
const (
	RuleFieldRemoved          Rule = "field-removed"
	RuleTypeChanged           Rule = "type-changed"
	RuleEnumAdded             Rule = "enum-added"
	RuleEnumValueRemoved      Rule = "enum-value-removed"
	RuleEnumValueAdded        Rule = "enum-value-added"
	RuleRequiredAdded         Rule = "required-added"
	RuleMaxTightened          Rule = "max-tightened"
	RuleMinTightened          Rule = "min-tightened"
	RuleDefaultAdded          Rule = "default-added"
	RuleDefaultChanged        Rule = "default-changed"
	RuleDefaultRemoved        Rule = "default-removed"
	RulePatternAdded          Rule = "pattern-added"
	RulePatternChanged        Rule = "pattern-changed"
	RulePatternRemoved        Rule = "pattern-removed"
	RuleNullableRemoved       Rule = "nullable-removed"
	RuleNullableAdded         Rule = "nullable-added"
	RuleOneOfAdded            Rule = "oneof-added"
	RuleOneOfRemoved          Rule = "oneof-removed"
	RuleOneOfLoosened         Rule = "oneof-alternative-added"
	RuleAnyOfAdded            Rule = "anyof-added"
	RuleAnyOfRemoved          Rule = "anyof-removed"
	RuleAnyOfLoosened         Rule = "anyof-alternative-added"
	RuleAllOfAdded            Rule = "allof-added"
	RuleNotChanged            Rule = "not-changed"
	RuleFormatChanged         Rule = "format-changed"
	RuleCELAdded              Rule = "cel-rule-added"
	RuleCELChanged            Rule = "cel-rule-changed"
	RuleCELRemoved            Rule = "cel-rule-removed"
	RulePreserveUnknownFields Rule = "preserve-unknown-fields-removed"
	RuleAdditionalProperties  Rule = "additional-properties-tightened"
	RuleListTypeChanged       Rule = "list-type-changed"
	RuleMapTypeChanged        Rule = "map-type-changed"
	RuleEmbeddedResource      Rule = "embedded-resource-changed"
	RuleUniqueItemsAdded      Rule = "unique-items-added"
	RuleMultipleOfTightened   Rule = "multiple-of-tightened"
	// Changes opack finds harmless that OLM v1's preflight refuses all the same (a relaxation, a keyword
	// that validates nothing): reported so, with olm-v1 among the refusers.
	RuleTypeRemoved    Rule = "type-removed"    // a node's type removed: it takes any value
	RuleEnumRemoved    Rule = "enum-removed"    // a whole enum removed: any value of the type is taken
	RuleKeywordChanged Rule = "keyword-changed" // another keyword changed: a title, an example, an explicit default of an extension, ...
)

// ruleInfo is a rule's default severity and the fix it suggests.
type ruleInfo struct {
	severity Severity
	fix      string
}

const fixDeprecate = "keep the version in spec.versions (served: false if it must disappear) until every object is " +
	"migrated to the storage version (kube-storage-version-migrator, or list and no-op update every object) and " +
	"status.storedVersions is patched to drop it; only then remove it in a later release"

const fixNewVersion = "revert the change in this version; make incompatible schema changes in a new API version " +
	"with a conversion webhook, and keep the old version served"

var rules = map[Rule]ruleInfo{
	RuleStoredVersionRemoved:   {SeverityError, fixDeprecate},
	RuleVersionRemoved:         {SeverityWarning, "set served: false for one release before removing the version, so clients can move to another version"},
	RuleVersionUnserved:        {SeverityWarning, "make sure no client, CSV (owned/required) or other operator still uses this version before it stops being served"},
	RuleStorageVersionChanged:  {SeverityInfo, "after this release, migrate stored objects to the new storage version and patch status.storedVersions, or the old version can never be removed"},
	RuleStorageVersionNew:      {SeverityWarning, "first release the new version served with storage: false, then move the storage flag in a later release (clients get an overlap window and rollback stays possible)"},
	RuleStorageVersionUnserved: {SeverityWarning, "serve the storage version, or move the storage flag to a served version"},
	RuleCSVVersionNotServed:    {SeverityError, "serve the version, or point the CSV's owned/required CRD entries at a served version"},
	RuleScopeChanged:           {SeverityError, "keep spec.scope; a different scope needs a new CRD (new group or plural)"},
	RuleNameChanged:            {SeverityError, "keep spec.group, spec.names.plural and spec.names.kind; a rename needs a new CRD"},
	RuleCRDAdded:               {SeverityInfo, ""},
	RuleCRDRemoved:             {SeverityWarning, "keep shipping the CRD while objects of it may exist, or document how users remove it"},
	RuleAPIServer:              {SeverityError, "fix the CRD so the API server accepts it as an update of the old one (`opack validate bundle` reports the CRD's own errors)"},
	RuleServedVersion:          {SeverityError, "make the served versions' schemas round-trip (same fields and constraints) or use a conversion webhook"},
	RuleInstanceInvalid:        {SeverityError, "loosen the new schema or migrate the existing objects before upgrading"},
	RuleInstanceCELInvalid:     {SeverityError, "loosen the validation rule (or make it a transition rule that ratchets) or migrate the existing objects"},

	RuleFieldRemoved:          {SeverityError, "keep the field (mark it deprecated in its description); remove it only in a new API version"},
	RuleTypeChanged:           {SeverityError, fixNewVersion},
	RuleEnumAdded:             {SeverityError, "do not restrict an existing free field to an enum; validate new values in the controller or in a new API version"},
	RuleEnumValueRemoved:      {SeverityError, "keep accepting the value (the controller may treat it as deprecated)"},
	RuleEnumValueAdded:        {SeverityWarning, "clients that switch exhaustively over the enum must handle the new value"},
	RuleRequiredAdded:         {SeverityError, "make the field optional so existing objects stay valid (a default is not enough for OLM v0: it validates existing objects against the new schema without defaulting them)"},
	RuleMaxTightened:          {SeverityError, "keep the old limit; existing objects above the new limit could no longer be updated"},
	RuleMinTightened:          {SeverityError, "keep the old limit; existing objects below the new limit could no longer be updated"},
	RuleDefaultAdded:          {SeverityError, "a new default changes the meaning of objects that omit the field; default in the controller or in a new API version"},
	RuleDefaultChanged:        {SeverityError, "keep the old default; objects that omit the field silently change behaviour"},
	RuleDefaultRemoved:        {SeverityError, "keep the default; objects that omit the field silently change behaviour"},
	RulePatternAdded:          {SeverityError, "do not add a pattern to an existing field; validate in the controller or in a new API version"},
	RulePatternChanged:        {SeverityError, "keep the old pattern, or make sure the new one accepts every value the old one accepted"},
	RulePatternRemoved:        {SeverityWarning, "clients that relied on the pattern may receive values they do not expect"},
	RuleNullableRemoved:       {SeverityError, "keep nullable: true; existing objects may hold null, and a null now reads as unset (or as the default)"},
	RuleNullableAdded:         {SeverityWarning, "clients must now handle null"},
	RuleOneOfAdded:            {SeverityError, "do not add a oneOf constraint to an existing field; existing objects may match no alternative"},
	RuleOneOfRemoved:          {SeverityError, "keep the oneOf alternative; existing objects may match it"},
	RuleOneOfLoosened:         {SeverityInfo, ""},
	RuleAnyOfAdded:            {SeverityError, "do not add an anyOf constraint to an existing field; existing objects may match no alternative"},
	RuleAnyOfRemoved:          {SeverityError, "keep the anyOf alternative; existing objects may match it"},
	RuleAnyOfLoosened:         {SeverityInfo, ""},
	RuleAllOfAdded:            {SeverityError, "do not add allOf constraints to an existing field"},
	RuleNotChanged:            {SeverityWarning, "check that every value the old schema accepted is still accepted"},
	RuleFormatChanged:         {SeverityError, "keep the old format; existing values may not match the new one"},
	RuleCELAdded:              {SeverityError, "existing objects may violate the new rule; make it a transition rule (oldSelf) or validate in a new API version"},
	RuleCELChanged:            {SeverityWarning, "check that every object the old rule accepted is still accepted"},
	RuleCELRemoved:            {SeverityInfo, ""},
	RulePreserveUnknownFields: {SeverityError, "keep x-kubernetes-preserve-unknown-fields: true, or list every field objects may hold; unknown fields are pruned (lost) on the next write"},
	RuleAdditionalProperties:  {SeverityError, "keep accepting the map's keys and values; removed or narrowed additionalProperties prune or reject existing data"},
	RuleListTypeChanged:       {SeverityWarning, "server-side apply merges the list differently; check field managers of existing objects"},
	RuleMapTypeChanged:        {SeverityInfo, "server-side apply now owns the object as one value (atomic) or field by field (granular); stored data and validation are unchanged"},
	RuleEmbeddedResource:      {SeverityWarning, "x-kubernetes-embedded-resource changes how the embedded object is validated and pruned"},
	RuleUniqueItemsAdded:      {SeverityError, "do not add uniqueItems to an existing list"},
	RuleMultipleOfTightened:   {SeverityError, "keep the old multipleOf (or a divisor of it)"},
	RuleTypeRemoved:           {SeverityInfo, ""},
	RuleEnumRemoved:           {SeverityInfo, ""},
	RuleKeywordChanged:        {SeverityInfo, ""},
}

// Rules lists every rule id, sorted.
func Rules() []Rule {
	out := make([]Rule, 0, len(rules))
	for r := range rules {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// DefaultSeverity returns the severity a rule has when no policy overrides it.
func DefaultSeverity(r Rule) Severity { return rules[r].severity }

// FixFor returns the fix a rule suggests.
func FixFor(r Rule) string { return rules[r].fix }

// checkable are the rules whose risk is that existing objects stop validating: when the existing
// objects are given (WithInstances) and validated, these findings are at most warnings and the
// instance findings decide.
var checkable = map[Rule]bool{
	RuleTypeChanged: true, RuleEnumAdded: true, RuleEnumValueRemoved: true, RuleRequiredAdded: true,
	RuleMaxTightened: true, RuleMinTightened: true, RulePatternAdded: true, RulePatternChanged: true,
	RuleNullableRemoved: true, RuleOneOfAdded: true, RuleOneOfRemoved: true, RuleAnyOfAdded: true,
	RuleAnyOfRemoved: true, RuleAllOfAdded: true, RuleNotChanged: true, RuleFormatChanged: true,
	RuleCELAdded: true, RuleCELChanged: true, RuleUniqueItemsAdded: true, RuleMultipleOfTightened: true,
}
