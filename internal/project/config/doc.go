// Package config reads opack.yaml, the one declarative file that drives opack build and opack check:
// the package, its version (literal, from a git tag or from a VERSION file), channels, the kustomize
// input, the bundle and catalog images, the release to compare against, output folders, the OLM v0
// and OLM v1 deploy targets, reviewed waivers and declared storage migrations.
//
// Load and Decode decode strictly (unknown fields are errors), report every problem with its line
// (ConfigError, FieldError), confine every path to the project, and fill in the defaults, so callers
// see the effective configuration. ResolveVersion finds the release version; BundleImage and
// CatalogImage expand the image templates; Waived and MigratedVersions answer the CRD upgrade check.
package config
