// Package catalog is opack's file-based catalog (FBC) library.
//
//   - model.go, property.go: the FBC model (DeclarativeConfig: olm.package, olm.channel,
//     olm.bundle, olm.deprecations, other schemas verbatim) and every property type.
//   - load.go, parse.go, meta.go: loading a folder (every file, JSON or YAML streams,
//     .indexignore, case-insensitive schema/package/name keys) in parallel, or a catalog image
//     (load_image.go), with opm's error messages. YAML in the block style catalogs are written
//     in is converted straight to opm's canonical JSON (yamlfast.go, yamlflow.go,
//     yamlscalar.go) and JSON is canonicalized without maps (jsoncanon.go); anything else
//     goes through sigs.k8s.io/yaml and opm's map round trip, so results are identical.
//   - write.go: WriteJSON/WriteYAML/WriteDir, byte-identical to opm.
//   - convert.go, validate_model.go, validate.go: opm's ConvertToModel and model validation
//     with opm's messages, all problems at once in a stable order, as validate findings.
//   - graph.go, check_crd.go, check_deps.go, check_graph.go: what opm does not check — CRD
//     upgrade safety on every replaces/skips/skipRange edge (internal/crd), stored versions
//     of every earlier bundle, dependency closure, skipRange semantics, channel heads.
//   - mermaid.go, dot.go, graph_write.go: the upgrade graph as opm alpha render-graph draws it
//     (unsafe edges in red) or as Graphviz dot.
//
// Rendering bundles and templates (render*.go, template*.go) build on the same model.
package catalog
