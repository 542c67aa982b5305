// Package fbc is opack's file-based catalog (FBC) model, loader and writer.
//
//   - model.go, property.go: the FBC model (DeclarativeConfig: olm.package, olm.channel,
//     olm.bundle, olm.deprecations, other schemas verbatim) and every property type.
//   - load.go, parse.go, meta.go: loading a folder (every file, JSON or YAML streams,
//     .indexignore, case-insensitive schema/package/name keys) in parallel, or a catalog image
//     (load_image.go), with opm's error messages. YAML in the block style catalogs are written
//     in is converted straight to opm's canonical JSON and JSON is canonicalized without maps
//     (internal/codec); anything else goes through sigs.k8s.io/yaml and opm's map round trip,
//     so results are identical.
//   - write.go: WriteJSON/WriteYAML/WriteDir, byte-identical to opm.
//   - convert.go: opm's ConvertToModel, all problems at once in a stable order.
//
// Packages under internal/catalog build on this model: render (bundles, images and folders to
// FBC, with its cache), template (basic and semver catalog templates), graph (the upgrade graph
// and its drawings) and check (opm's validation plus CRD safety and dependency closure).
package fbc
