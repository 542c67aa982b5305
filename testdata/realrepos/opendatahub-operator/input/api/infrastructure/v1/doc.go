// +kubebuilder:object:generate=true

// This package provides a set of types used for defining cross-cutting infrastructure
// configurations within the OpenDataHub Custom Resource Definitions (CRDs).

package v1
