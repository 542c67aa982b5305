// Package codec converts the YAML catalogs are written in straight to opm's canonical JSON
// (yamlfast.go, yamlflow.go, yamlscalar.go) and canonicalizes JSON without maps (jsoncanon.go).
// Callers fall back to sigs.k8s.io/yaml whenever a document is outside the fast path.
package codec
