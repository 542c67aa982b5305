//go:build tools

// Package tools pins OLM v1's controllers at operator-controller v1.2.0, the oldest OLM v1 release the
// module proxy serves (v1.0.0, v1.1.0 and v1.3.0 to v1.9.0 are refused), for opack's
// end-to-end tests: built as hack/tools/operator-controller builds v1.11.0, never linked into opack.
package tools

import (
	_ "github.com/operator-framework/operator-controller/cmd/catalogd"
	_ "github.com/operator-framework/operator-controller/cmd/operator-controller"
)
