// Package finding is opack's one findings model, at the bottom of the layers: a Finding (rule
// id, severity, file, object, CRD/version/path(s), old/new, message, fix, actor(s); for catalog
// findings the package and the upgrade edges; published for edges no build can change), a Report of
// them, and the report writers (text, JSON, GitHub annotations). Every checker — validate, crd,
// catalog/check, catalog/diff, project — reports Findings, and every command prints them with
// Report.Write.
//
// JSON is one shape everywhere (Finding.MarshalJSON): operator-sdk's json-alpha1 type and message,
// then severity, rule and file always, and the other fields when set. docs/findings.schema.json is
// its contract (JSON Schema draft 2020-12); cmd/opack's TestJSONContract checks every command's
// -o json against it. Add a field there when adding one here.
//
// Rule ids are "<family>/<rule>": operator-sdk/<check> (operator-sdk's validators),
// apiserver/<check>, best-practices/<check>, crd-upgrade/<rule> (one CRD upgrade rule of
// internal/crd, crd.Rule.ID), opm/<check> and catalog/<check> (opm's and opack's catalog checks),
// olmv1/<check> (internal/emit: why OLM v1 would refuse a bundle), check/<step> and
// crd/upgrade (the steps of `opack check` and `opack build`). A CRD upgrade finding has the
// same id whichever command reports it (`validate crds`, `catalog validate`, `build`, `check`):
// crd-upgrade/<rule>; the message still names the rule in brackets. Waivers in opack.yaml also
// accept the ids earlier releases reported (crd/upgrade, catalog/crd-upgrade, <rule>,
// crd/<rule>: crd.Rule.WaiverIDs).
package finding
