// Package bundle holds an OLM registry+v1 bundle in memory: it loads one from a folder
// (Load) and generates one from kustomize output the way operator-sdk's
// `generate bundle` does (Generate), then writes or checks it on disk (Write, Check).
//
// Generation reproduces operator-sdk v1.42.3 byte for byte where that tool is right
// (CSV construction, RBAC split, webhook definitions, file naming, YAML formatting,
// metadata templates) and differs where it is not: createdAt is stable, base
// relatedImages and user labels are kept, stale files are removed and reported,
// dropped objects are reported, and the bundle folder is replaced atomically.
package bundle
