// Package crd checks that a CustomResourceDefinition upgrade is safe: it compares the old and new CRDs
// (read by internal/crd/load) structurally (scope and names, stored and served versions, every
// openAPIV3Schema keyword classified as tightening, loosening or neutral, served-version round trips
// under None conversion, the API server's own update validation) and checks existing objects against
// the new schemas as OLM v0 does (internal/crd/instance).
//
// Compare (or CompareSets for loaded sets) returns findings; each names the rule that fired, the CRD, the
// version, the JSON path of the schema node, the old and new values, how to fix it, and two facts: what
// the change does to existing objects and clients (its semantic severity: the rule's, from a Policy, or
// milder where a severity decision says the meaning is kept) and who refuses it (the API server, OLM v0,
// OLM v1) or, when nothing refuses it, that clients break. It is printed with the higher of the two: an
// error where the API server or an installer the project deploys with (WithInstallers) refuses, at least
// a warning where another installer refuses. The API server's verdicts are checked against a real one
// (TestE2EAPIServerVerdicts), the OLMs' against the real controllers (TestActorsAgreeWithOLM). Only what
// the change introduces is reported: identical CRDs always pass, and the update is validated with the API
// server's own ratcheting, unless the API server would refuse the old CRD's schemas itself (it can then be
// on no cluster, and the new CRD is validated as a create). Check runs a whole `opack validate crds`
// request (paths, images through an injected Puller, stored versions, cluster CRDs, instances, policy
// file); a side without any CRD is an error, and its Result counts the CRDs compared.
//
// Callers comparing many upgrade edges (catalog validation) load each bundle once with load.CRDs and call
// CompareSets per edge; WithAPIServerValidation(false) skips the API server's validation, the only
// costly part (tens of milliseconds for a large changed CRD; the structural comparison takes well under
// a millisecond).
package crd
