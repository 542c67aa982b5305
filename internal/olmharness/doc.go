// Package olmharness runs the real OLM controllers as processes for end-to-end tests, against a real
// kube-apiserver and etcd (internal/crdserver.StartKube) holding the CRDs of the OLM release that runs:
// OLM v0's olm-operator and catalog-operator (operator-lifecycle-manager v0.46.0, built from
// hack/tools/olm) and OLM v1's operator-controller and catalogd (v1.11.0, hack/tools/operator-controller),
// built once by hack/build-apiserver.sh into the user cache folder, never linked into opack.
//
// The harness plays what a cluster's nodes do and nothing else: there is no kubelet and no
// kube-controller-manager, so the test runs what they would (the pods OLM creates, from their specs,
// with the real programs; pod and Job status; Deployments marked available). It never resolves, never
// writes InstallPlans, CSV phases or ClusterExtension status and never checks CRDs: the controllers do.
//
// Deviations from a cluster, each forced by running without nodes:
//   - the controllers run as processes with a kubeconfig whose user is in system:masters, not as pods
//     with their service accounts (the RBAC of OLM's install manifests is not exercised);
//   - both OLM v0 controllers bind their health and metrics server on :8080, a port their code fixes
//     (pkg/lib/server/server.go): the second bind fails and, as upstream does, is only logged;
//   - the environment variable CI is removed from the controllers' environment: with it set, OLM v0 wraps
//     its clients in a round-tripper that panics on objects lacking olm.managed=true, a check meant for
//     OLM's own CI (pkg/controller/operators/validatingroundtripper).
//
// Only tests import it.
package olmharness
