// Package apitypes reads a project's Go API types the way operator-sdk v1.42.3's
// `generate kustomize manifests` does (internal/generate/clusterserviceversion/bases/definitions):
// type doc comments become owned CRD descriptions, and `+operator-sdk:csv:customresourcedefinitions`
// markers set displayName, resources and spec/status descriptors, read with controller-tools'
// marker collector, as operator-sdk does.
//
// Unlike operator-sdk, reading needs neither the go command nor the module's dependencies: the
// API packages are found and their files chosen as go list and controller-tools' loader would
// (discover.go: go.mod's module path, nested modules, go/build's constraints for the target
// platform) and parsed from syntax, every file through the project's confined reader; only the
// API packages are read, since a field's type is looked up among them. Errors in the API
// packages themselves (syntax, bad markers, a file that cannot be read) are reported with the
// package they are in.
package apitypes
