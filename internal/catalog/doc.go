// Package catalog is opack's file-based catalog (FBC) library: the model (model.go), loading
// from folders and catalog images (load.go), writing JSON/YAML byte-identical to opm
// (write.go), opm's model conversion and validation with all problems reported at once
// (validate*.go), checks opm does not make (CRD safety on every upgrade edge, dependency
// closure, skipRange semantics, channel heads), and the upgrade graph (graph.go).
package catalog
