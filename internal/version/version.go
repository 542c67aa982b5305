// Package version holds opack's version and the builder name it writes into bundles.
//
// A release build says its release however it was built: `make build` sets Version with
// -ldflags "-X github.com/opack/opack/internal/version.Version=v1.2.3" (git describe), and
// `go install github.com/opack/opack/cmd/opack@v1.2.3` records v1.2.3 as the main module's version.
// Anything else — a commit between releases, a dirty tree, a local `go build` — is a development build.
package version

import (
	"regexp"
	"runtime/debug"
)

// Version is set at link time; when empty, the main module's version from the build info is used.
var Version = ""

// Dev is the one word a development build writes where a release build writes its version.
const Dev = "dev"

// release matches a release version: vMAJOR.MINOR.PATCH with an optional pre-release such as
// -rc.1, but not git describe's -N-gHASH suffix, a pseudo-version or +dirty / +incompatible.
var release = regexp.MustCompile(`^v\d+\.\d+\.\d+(-(alpha|beta|rc)(\.\d+)?)?$`)

// String is opack's version as `opack version` prints it: the link-time or module version as it
// is (e.g. v0.2.0-3-gabc1234-dirty), else "(devel)" with the commit the build info records.
func String() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	v := "(devel)"
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && len(s.Value) >= 12:
			v += " " + s.Value[:12]
		case s.Key == "vcs.modified" && s.Value == "true":
			v += " modified"
		}
	}
	return v
}

// Release is the release opack was built from, or Dev for a development build.
func Release() string {
	return releaseOf(String())
}

func releaseOf(v string) string {
	if release.MatchString(v) {
		return v
	}
	return Dev
}

// Builder is the value opack writes where operator-sdk writes "operator-sdk-<version>"
// (the CSV's operators.operatorframework.io/builder annotation and the bundle's
// metrics.builder label): "opack-v1.2.3" for a release, "opack-dev" otherwise, so two builds
// of the same release write the same bytes.
func Builder() string { return "opack-" + Release() }
