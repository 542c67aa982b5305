// Package crdserver runs a real CRD API server for tests: Debian's etcd and k8s.io/apiextensions-apiserver's
// own main (built from the separate tools module hack/tools/apiserver, never linked into opack), both on
// random loopback ports, and talks REST to it with a client certificate in group system:masters.
//
// Only tests import it. Start returns a Server whose Close kills both processes by PID; Build finds or
// builds the apiextensions-apiserver binary in a cache folder outside the repository.
//
// The flags are upstream's (apiextensions-apiserver test/integration/fixtures/server.go): delegated
// authentication and authorization point at a dummy kubeconfig (system:masters skips them), priority
// and fairness and the admission plugins that need a full cluster are off, and readiness is
// /readyz?exclude=informer-sync (that check never passes without a kube-apiserver).
//
// StartKube runs a full kube-apiserver instead (k8s.io/kubernetes/cmd/kube-apiserver, built by BuildKube
// from hack/tools/kube-apiserver) with RBAC and every default admission plugin, and writes a kubeconfig
// for kubectl: the end-to-end tests `kubectl apply -k` opack's deploy manifests against it. No controller
// manager runs, so objects are admitted, validated and stored, and nothing reconciles them.
package crdserver
