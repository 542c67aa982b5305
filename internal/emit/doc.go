// Package emit renders the manifests a cluster's OLM consumes to install an operator from its catalog:
// for OLM v0 a CatalogSource, an OperatorGroup and a Subscription; for OLM v1 a ClusterCatalog, a
// ClusterExtension and, only when configured, a ServiceAccount with its RBAC. The manifests come from
// the Go templates of the templates package, one object per file plus a kustomization.yaml per folder
// (for Argo CD or Flux), and every object is validated against OLM's own CRD schemas (embedded from
// operator-framework/api and operator-controller) with the API server's validation code before anything
// is written. With signing configured, the image policy of the release is rendered too: OpenShift's
// and sigstore policy-controller's ClusterImagePolicy (validated against their CRDs the same way) and
// a containers policy.json and registries.d file for nodes. CheckOLMv1 tells whether a bundle can be
// installed by OLM v1 at all.
package emit
