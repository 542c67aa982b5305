// Package upgrades computes the upgrades OLM performs from each installed release of a package
// in a file-based catalog: the releases OLM v0 (operator-lifecycle-manager v0.46.0) installs one
// InstallPlan at a time until it stops, the release OLM v1 (operator-controller v1.11.0) picks
// with its default upgrade constraints, and the releases stranded short of the channel head.
// docs/upgrades.md states the rules with their file:line in OLM's source.
package upgrades
