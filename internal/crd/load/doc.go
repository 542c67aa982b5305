// Package load reads CustomResourceDefinitions as internal/crd compares them: from CRD files (YAML or
// JSON streams, `kind: List` dumps), folders and bundle folders (CRDs), or one CRD given as JSON
// (FromJSON, FromJSONSharing, DecodeV1, for catalogs' embedded objects). apiextensions.k8s.io/v1beta1
// CRDs are converted to v1, and every CRD is defaulted as the API server stores it; a schema nested
// deeper than MaxSchemaDepth is refused. The ClusterServiceVersions beside the CRDs give the versions
// they own or require (VersionRef) and the RBAC rules they ask for (Grant). Instances reads existing
// objects, with integers as the API server decodes them.
package load
