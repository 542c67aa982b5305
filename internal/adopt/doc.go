// Package adopt writes the first opack.yaml of an existing operator-sdk or kubebuilder repository
// (opack init): the package and domain of its PROJECT file, the namespace and images of config/, the
// values its Makefile sets (VERSION, CHANNELS, IMG, BUNDLE_IMG, CATALOG_IMG, kustomize edits, read
// by internal/makefile without running make), and the file-based catalogs and catalog templates it
// already keeps, so that opack build adds to them. The opack.yaml it renders is decoded by
// internal/project before it is written; the build/check pipeline is internal/project's.
package adopt
