//go:build tools

// Package tools pins OLM v0's controllers (operator-lifecycle-manager's cmd/olm, the olm-operator, and
// cmd/catalog, the catalog-operator) and the programs of OLM's util image (cmd/copy-content, which the
// catalog pod copies its catalog with, and util/cpb, which the bundle unpack Job copies a bundle with) for
// opack's end-to-end tests: the real OLM v0 resolves, installs and upgrades what opack builds. It is never
// linked into opack.
package tools

import (
	_ "github.com/operator-framework/operator-lifecycle-manager/cmd/catalog"
	_ "github.com/operator-framework/operator-lifecycle-manager/cmd/copy-content"
	_ "github.com/operator-framework/operator-lifecycle-manager/cmd/olm"
	_ "github.com/operator-framework/operator-lifecycle-manager/util/cpb"
)
