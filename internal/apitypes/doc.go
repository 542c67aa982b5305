// Package apitypes reads a project's Go API types the way operator-sdk v1.42.3's
// `generate kustomize manifests` does (internal/generate/clusterserviceversion/bases/definitions):
// type doc comments become owned CRD descriptions, and `+operator-sdk:csv:customresourcedefinitions`
// markers set displayName, resources and spec/status descriptors. Packages are loaded with
// controller-tools' loader and marker collector, as operator-sdk does.
//
// Unlike operator-sdk, reading never needs the module's dependencies: the loader runs `go list`
// offline (GOPROXY=off, -mod=readonly or vendor, GOTOOLCHAIN=local) and tolerates imports that are not
// in the module cache, since only the API packages' own syntax and the packages of the same module
// they import are read. Errors in the API packages themselves (syntax, bad markers) are reported
// with the package they are in.
package apitypes
