// Package version holds opack's version, set at link time with
// -ldflags "-X github.com/opack/opack/internal/version.Version=v1.2.3".
package version

// Version is opack's release version.
var Version = "v0.1.0"

// Builder is the value opack writes where operator-sdk writes "operator-sdk-<version>".
func Builder() string { return "opack-" + Version }
