// Package render turns bundle folders, package manifests, file-based catalogs and bundle or
// catalog images into a file-based catalog as `opm render` does, with a content-addressed
// cache of rendered bundles (render_cache*.go).
package render
