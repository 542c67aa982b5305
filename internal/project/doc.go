// Package project reads and writes opack.yaml, the one declarative file that drives opack build and
// opack check: the package, its version (literal, from a git tag or from a VERSION file), channels,
// the kustomize input, the bundle and catalog images, the release to compare against, output folders,
// the OLM v0 and OLM v1 deploy targets, reviewed waivers and declared storage migrations.
//
// Load decodes strictly (unknown fields are errors) and reports every problem with its line; defaults
// are filled in by Load so callers see the effective configuration (the first opack.yaml of an existing
// repository is internal/adopt's). Emit renders the deploy manifests of internal/emit for a project.
//
// Build runs the release pipeline (opack build): generate, validate, CRD upgrade check against the
// previous release (waivers and migrations applied), bundle image, catalog template (bundle by
// digest), render, catalog validation, catalog image, deploy manifests. It stages everything outside
// the project and swaps the changed outputs in only when every step passed; a failed step is a
// *StepError naming the step, the file and the fix. Check runs the same pipeline and reports the
// outputs that differ, with a unified diff.
package project
