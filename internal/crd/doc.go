// Package crd checks that a CustomResourceDefinition upgrade is safe: it loads CRDs (apiextensions.k8s.io
// v1, with v1beta1 converted) from files, folders and bundles, compares the old and new CRDs structurally
// (scope and names, stored and served versions, every openAPIV3Schema keyword classified as tightening,
// loosening or neutral, served-version round trips under None conversion, the API server's own update
// validation) and validates existing objects against the new schemas as OLM v0 does (OpenAPI and CEL).
//
// Compare (or CompareSets for loaded sets) returns findings; each names the rule that fired, the CRD, the
// version, the JSON path of the schema node, the old and new values and how to fix it. Severities come
// from a Policy (per-rule error, warn, info or off). Only what the change introduces is reported:
// identical CRDs always pass. Check runs a whole `opack validate crds` request (paths, images through an
// injected Puller, stored versions, cluster CRDs, instances, policy file); a side without any CRD is an
// error, and its Result counts the CRDs compared.
//
// Callers comparing many upgrade edges (catalog validation) load each bundle once with Load and call
// CompareSets per edge; WithAPIServerValidation(false) skips the API server's validation, the only
// costly part (tens of milliseconds for a large changed CRD; the structural comparison takes well under
// a millisecond).
package crd
