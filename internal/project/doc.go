// Package project runs opack build and opack check for a project described by opack.yaml (read by
// internal/project/config; the first opack.yaml of an existing repository is internal/adopt's).
// Emit renders the deploy manifests of internal/emit for a project.
//
// Build runs the release pipeline (opack build): generate, validate, CRD upgrade check against the
// previous release (waivers and migrations applied), bundle image, catalog template (bundle by
// digest), render, catalog validation, catalog image, deploy manifests. It stages everything outside
// the project and swaps the changed outputs in only when every step passed; a failed step is a
// *StepError naming the step, the file and the fix. Check runs the same pipeline and reports the
// outputs that differ, with a unified diff.
package project
