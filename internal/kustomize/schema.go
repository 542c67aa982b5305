package kustomize

import "sync"

// Kustomize keeps the Kubernetes OpenAPI schema it merges patches with in process-wide state,
// decoded on first use and never guarded (kyaml's openapi package: initSchema and the schema map
// are read and written without a lock). Builds take turns on it, and every build gets the state a
// fresh kustomize process starts from: a build whose kustomizations name a schema of their own
// (openapi:) runs again from the reset state, and leaves the state reset behind it. The default
// schema is not decoded ahead on another goroutine: kustomize's first lookup during the build would
// decode it at the same time, unguarded.
var schemaMu sync.Mutex // one build at a time touches kustomize's schema state
