//go:build tools

// Package tools pins k8s.io/apiextensions-apiserver, whose own main (the module root) the end-to-end
// tests build and run as a real CRD API server. It is a separate module so that the server is never
// linked into opack; hack/build-apiserver.sh builds it into a cache folder. The dependencies both modules
// share are required at opack's versions (go.mod), so that the build reuses opack's compiled packages.
package tools

import _ "k8s.io/apiextensions-apiserver"
