package kustomize

import (
	"sync"

	"sigs.k8s.io/kustomize/kyaml/openapi"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// Kustomize keeps the Kubernetes OpenAPI schema it merges patches with in process-wide state,
// decoded on first use (a gzipped JSON bundle: about 18 ms of CPU, most of a small build's patch
// step). A build decodes it on another core while kustomize reads the kustomizations, and gives
// every build the state a fresh kustomize process starts from: a build whose kustomizations name
// a schema of their own (openapi:) runs again from the reset state without the warm-up, and
// leaves the state reset behind it.
var schemaMu sync.Mutex // one build at a time touches kustomize's schema state

// warmSchema decodes kustomize's default schema in the background; wait returns when it is done.
func warmSchema() (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		openapi.SchemaForResourceType(kyaml.TypeMeta{}) // decodes the default schema once
	}()
	return func() { <-done }
}
