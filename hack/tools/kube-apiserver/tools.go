//go:build tools

// Package tools pins kube-apiserver (k8s.io/kubernetes/cmd/kube-apiserver) for opack's end-to-end tests:
// `kubectl apply -k` of the deploy manifests against a real API server. It is never linked into opack.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
