// Package check validates a file-based catalog: opm's model validation with opm's messages,
// plus what opm does not check — CRD upgrade safety on every upgrade edge (internal/crd),
// stored versions, dependency closure, skipRange semantics and channel heads.
package check
