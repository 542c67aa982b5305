//go:build tools

// Package tools pins k8s.io/apiextensions-apiserver, whose own main (the module root) the end-to-end
// tests build and run as a real CRD API server. It is a separate module so that the server is never
// linked into opack; hack/build-apiserver.sh builds it into a cache folder.
package tools

import _ "k8s.io/apiextensions-apiserver"
