// Package kustomize builds a kustomization in-process with sigs.k8s.io/kustomize/api (krusty),
// producing the same stream as `kustomize build` / `kubectl kustomize` (legacy resource order),
// so no kustomize binary is needed.
package kustomize
