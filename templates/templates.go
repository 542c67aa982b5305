// Package templates holds the files opack renders into a project: the deploy manifests of OLM v0
// (olmv0/*.yaml.tmpl) and OLM v1 (olmv1/*.yaml.tmpl) and the image policy of signed releases
// (imagepolicy-*/), Go text/templates executed by internal/emit,
// and Makefile.opack, the drop-in replacement for operator-sdk's bundle and catalog targets.
package templates

import "embed"

// FS holds every template file, with paths relative to this folder.
//
//go:embed olmv0/*.yaml.tmpl olmv1/*.yaml.tmpl imagepolicy-*/*.tmpl Makefile.opack
var FS embed.FS

// Makefile returns the contents of Makefile.opack.
func Makefile() []byte {
	data, err := FS.ReadFile("Makefile.opack")
	if err != nil {
		panic(err) // embedded at build time; cannot fail
	}
	return data
}
