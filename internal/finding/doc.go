// Package finding is opack's one findings model, at the bottom of the layers: a Finding (rule
// id, severity, file, object, CRD/version/path, old/new, message, fix), a Report of them, and the
// report writers (text, JSON, GitHub annotations). Every checker — validate, crd, catalog/check,
// project — reports Findings, and every command prints them with Report.Write.
//
// Rule ids are "<family>/<rule>": operator-sdk/<check> (operator-sdk's validators),
// apiserver/<check>, best-practices/<check>, crd-upgrade/<rule> (one CRD upgrade rule of
// internal/crd, crd.Rule.ID), opm/<check> and catalog/<check> (opm's and opack's catalog checks),
// olmv1/<check> (internal/emit: why OLM v1 would refuse a bundle), check/<step> and
// crd/upgrade (the steps of `opack check` and `opack build`). Catalog and
// build findings about a CRD upgrade keep their step's id and name the crd-upgrade rule in
// brackets in the message, so existing waivers and CI filters keep matching.
package finding
