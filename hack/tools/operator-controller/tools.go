//go:build tools

// Package tools pins OLM v1's controllers (operator-controller's cmd/operator-controller and
// cmd/catalogd) for opack's end-to-end tests: the real OLM v1 unpacks, resolves, installs and upgrades
// what opack builds. It is never linked into opack.
package tools

import (
	_ "github.com/operator-framework/operator-controller/cmd/catalogd"
	_ "github.com/operator-framework/operator-controller/cmd/operator-controller"
)
