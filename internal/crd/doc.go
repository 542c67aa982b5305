// Package crd checks that a CustomResourceDefinition upgrade is safe: it loads CRDs (apiextensions.k8s.io
// v1, with v1beta1 converted) from files, folders and bundles, compares the old and new CRDs structurally
// (scope and names, stored and served versions, every openAPIV3Schema keyword classified as tightening,
// loosening or neutral, served-version round trips under None conversion, the API server's own update
// validation) and validates existing objects against the new schemas as OLM v0 does (OpenAPI and CEL).
//
// Compare (or CompareSets for loaded sets) returns findings; each names the rule that fired, the CRD, the
// version, the JSON path of the schema node, the old and new values, how to fix it, and the actor that
// refuses the upgrade (the API server, OLM v0, OLM v1) or, when nothing refuses it, that clients break.
// Severities come from a Policy (per-rule error, warn, info or off); a refusal by the API server (rules
// apiserver, scope-changed, name-changed, stored-version-removed) is an error by default, and the verdicts
// are checked against a real API server (TestE2EAPIServerVerdicts). Only what the change introduces is
// reported: identical CRDs always pass, and the update is validated with the API server's own ratcheting,
// unless the API server would refuse the old CRD's schemas itself (it can then be on no cluster, and the
// new CRD is validated as a create). Check runs a whole `opack validate crds` request (paths, images through an
// injected Puller, stored versions, cluster CRDs, instances, policy file); a side without any CRD is an
// error, and its Result counts the CRDs compared.
//
// Callers comparing many upgrade edges (catalog validation) load each bundle once with Load and call
// CompareSets per edge; WithAPIServerValidation(false) skips the API server's validation, the only
// costly part (tens of milliseconds for a large changed CRD; the structural comparison takes well under
// a millisecond).
package crd
