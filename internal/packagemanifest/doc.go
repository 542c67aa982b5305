// Package packagemanifest reads operator bundles from disk the way operator-framework's loader does, and
// converts package-manifest folders to bundle folders.
//
// Entry points:
//   - LoadBundleDir reads a registry+v1 (or helm, plain) bundle folder as operator-sdk's `bundle validate`
//     does, keeping where each object came from (Bundle); LoadError names the file it could not read.
//   - FindPackageFile and LoadPackageDir read a package-manifest folder (<package>.package.yaml and one
//     version folder per CSV); Package.ImportFindings are operator-registry's import rules as findings.
//   - Convert writes a package-manifest folder as bundle folders (`opack convert package-manifests`).
//
// A ParseCache shares decoded files across the bundles of one run. internal/validate validates what this
// package loads; nothing here prints or exits.
package packagemanifest
