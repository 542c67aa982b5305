// Package finding is opack's one findings model, at the bottom of the layers: a Finding (rule
// id, severity, file, object, CRD/version/path, old/new, message, fix), a Report of them, and the
// report writers (text, JSON, GitHub annotations). Every checker — validate, crd, catalog/check,
// project — reports Findings, and every command prints them with Report.Write.
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
